import { MessageSquareText, Shrink, TriangleAlert } from 'lucide-react';
import type { SlashCommand } from './slash-commands';
import './prompts.css';

/** One `/` suggestion: the command, what it does, and what is wrong with a prompt that has a warning. */
export function SlashRow({ command }: { command: SlashCommand }) {
  const Icon = command.kind === 'compact' ? Shrink : MessageSquareText;
  const warnings = command.kind === 'prompt' ? command.prompt.warnings : [];
  const blocked = command.kind === 'prompt' && !command.prompt.usable;
  return (
    <span className={`mention-row slash-row${blocked ? ' slash-blocked' : ''}`} data-testid="slash-row">
      <Icon size={14} aria-hidden className="mention-icon" />
      <span className="mention-label">/{command.name}</span>
      {warnings.length > 0 && (
        <span className="slash-warning small" title={warnings.join(' ')}>
          <TriangleAlert size={12} aria-hidden /> {blocked ? 'does not run' : 'warning'}
        </span>
      )}
      <span className="mention-detail muted small">
        {warnings.length > 0 ? warnings.join(' ') : (command.description ?? 'No description')}
      </span>
    </span>
  );
}
