import type { ReactNode } from 'react';
import { useContextStore } from '../context/context-store';
import { exactTokens } from '../context/token-format';
import { AgentPromptSection } from './AgentPromptSection';
import { FileItems } from './FileItems';
import { useItemsStore } from './items-store';
import { PinnedItems } from './PinnedItems';
import { RuleItems } from './RuleItems';
import { panelItems, type PanelItems } from './session-items-view';
import { ToolItems } from './ToolItems';
import './items.css';

function Section({
  title,
  summary,
  testId,
  children,
}: {
  title: string;
  summary?: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <section className="items-section" aria-label={title} data-testid={testId}>
      <h3>
        {title}
        {summary && <span className="items-summary">{summary}</span>}
      </h3>
      {children}
    </section>
  );
}

/** "2 in use · 48 tokens": how many of a section's items are in force, and what they cost. */
function inForce(entries: { tokens: number | null; active?: boolean }[], word: string): string | undefined {
  const used = entries.filter((entry) => entry.active !== false);
  if (used.length === 0) return undefined;
  const tokens = used.reduce((sum, entry) => sum + (entry.tokens ?? 0), 0);
  return `${used.length} ${word} · ${exactTokens(tokens)} tokens`;
}

function Sections({ items }: { items: PanelItems }) {
  return (
    <>
      {items.notices.length > 0 && (
        <ul className="items-notices small" data-testid="items-notices">
          {items.notices.map((notice) => (
            <li key={notice}>{notice}</li>
          ))}
        </ul>
      )}
      <Section title="Pinned notes" summary={inForce(items.pinned, 'pinned')} testId="pinned-section">
        <PinnedItems pinned={items.pinned} />
      </Section>
      <Section title="Rules" summary={inForce(items.rules, 'in use')} testId="rules-section">
        <RuleItems rules={items.rules} folder={items.rulesFolder} />
      </Section>
      <Section title="Files" summary={inForce(items.attachments, 'sent')} testId="files-section">
        <FileItems files={items.attachments} />
      </Section>
      <Section title="Tools" summary={inForce(items.tools, 'offered')} testId="tools-section">
        <ToolItems tools={items.tools} />
      </Section>
      <Section title="Agent prompt" testId="prompt-section">
        <AgentPromptSection items={items} />
      </Section>
    </>
  );
}

/**
 * What this chat's requests hold besides its messages: pinned notes, rules, files, tools and the agent
 * prompt. In a chat not started yet, what is chosen waits for the first message.
 */
export function SessionContextPanel() {
  const items = useItemsStore((state) => state.items);
  const pending = useItemsStore((state) => state.pending);
  const error = useItemsStore((state) => state.error);
  const meter = useContextStore((state) => state.status?.pinned ?? null);
  return (
    <div className="session-context" data-testid="session-context">
      <p className="items-intro small muted">
        {items?.sessionId === null
          ? 'What this new chat will hold besides your messages. What you add here goes with your first message.'
          : 'What each request of this chat holds besides its messages.'}
      </p>
      {error && (
        <p className="error small pad" role="alert">
          {error}
        </p>
      )}
      {items ? (
        <Sections items={panelItems(items, pending, meter)} />
      ) : (
        !error && <p className="muted pad">Loading…</p>
      )}
    </div>
  );
}
