import type { ChatMessage } from '../../../../shared/chat-domain';
import type { PromptFill, PromptPart } from '../../../../shared/prompt-domain';
import './prompts.css';

/** The saved prompt a user message came from, if any. */
export function promptOf(message: Pick<ChatMessage, 'parts'> | undefined): PromptPart | null {
  return message?.parts.find((part): part is PromptPart => part.type === 'prompt') ?? null;
}

function fillText(fill: PromptFill): string {
  const source = fill.path ? ` from ${fill.path}` : '';
  const size = `${fill.chars.toLocaleString('en')} characters${source}`;
  return fill.variable === 'note' ? `${size}, given to the model with the message as a pinned note is` : size;
}

/** What each variable of a saved prompt put into the message. */
export function PromptFills({ prompt }: { prompt: PromptPart }) {
  if (prompt.fills.length === 0) return <p className="muted small">It has no variables.</p>;
  return (
    <ul className="prompt-fills" data-testid="prompt-fills">
      {prompt.fills.map((fill, index) => (
        <li key={index}>
          <span className="prompt-fill-name">{`{{${fill.variable}}}`}</span> — {fillText(fill)}
          {fill.variable !== 'note' && (
            <>
              : <q className="muted">{fill.preview}</q>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * Under a user message: "From the prompt /Summarize" (and the model its `model:` had answer), opening
 * to what its variables put in.
 */
export function PromptOrigin({ prompt }: { prompt: PromptPart }) {
  return (
    <details className="prompt-origin" data-testid="prompt-origin">
      <summary>
        From the prompt <strong>/{prompt.name}</strong>
        {prompt.model && (
          <span data-testid="prompt-model">
            {' '}
            — answered by <strong>{prompt.model}</strong>, the model it asks for
          </span>
        )}
      </summary>
      <PromptFills prompt={prompt} />
    </details>
  );
}
