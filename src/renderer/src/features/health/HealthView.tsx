import { useState, type ReactNode } from 'react';
import type { ResolvedLink, VaultHealth } from '../../../../shared/index-domain';
import { useEscapeLayer } from '../../components/use-escape-layer';
import { useNoteStore } from '../notes/note-store';
import { useHealthStore } from './health-store';
import './health.css';

/** Items a section shows before "Show all": a large vault can have thousands of ambiguous links. */
const shownAtFirst = 100;

/** A titled list of issues, the first hundred of them until the user asks for all. */
function IssueSection<Item>({
  title,
  items,
  render,
}: {
  title: string;
  items: Item[];
  render: (item: Item) => ReactNode;
}) {
  const [all, setAll] = useState(false);
  if (items.length === 0) return null;
  const shown = all ? items : items.slice(0, shownAtFirst);
  return (
    <section className="health-section">
      <h3>
        {title} <span className="muted">{items.length.toLocaleString()}</span>
      </h3>
      <ul>{shown.map(render)}</ul>
      {shown.length < items.length && (
        <button type="button" className="link-button" onClick={() => setAll(true)}>
          Show all {items.length.toLocaleString()}
        </button>
      )}
    </section>
  );
}

function isHealthy(health: VaultHealth): boolean {
  return Object.values(health).every((list: unknown[]) => list.length === 0);
}

function LinkIssues({
  title,
  links,
  testId,
  onOpen,
}: {
  title: string;
  links: ResolvedLink[];
  testId: string;
  onOpen: (path: string, line: number) => void;
}) {
  return (
    <IssueSection
      title={title}
      items={links}
      render={(link) => (
        <li key={`${link.source}:${link.line}:${link.column}`}>
          <button
            type="button"
            className="health-item"
            data-testid={testId}
            onClick={() => onOpen(link.source, link.line)}
          >
            <code>{link.raw}</code>
            <span className="health-reason">{link.reason}</span>
            {link.fix && (
              <span className="health-fix">
                Write <code>{link.fix}</code>
              </span>
            )}
            <span className="health-where">
              {link.source}:{link.line}
            </span>
          </button>
        </li>
      )}
    />
  );
}

/** Vault health: everything in the vault that needs the user's attention; a click opens the spot. */
export function HealthView() {
  const { health, error, show } = useHealthStore();
  const open = useNoteStore((state) => state.open);
  useEscapeLayer(true, () => show(false));
  const openAt = (path: string, line: number | null) => {
    show(false);
    void open(path, line);
  };

  return (
    <section className="note-viewer health-view" aria-label="Vault health" data-testid="health-view">
      <header className="pane-header">
        <h2>Vault health</h2>
        <button
          type="button"
          className="icon-button"
          onClick={() => show(false)}
          aria-label="Close vault health"
        >
          ×
        </button>
      </header>
      <div className="note-body">
        {error && <p className="error">{error}</p>}
        {!health && !error && <p className="muted">Reading the vault's health…</p>}
        {health && isHealthy(health) && (
          <p className="muted">Every link resolves and every file was read cleanly.</p>
        )}
        {health && (
          <>
            <IssueSection
              title="Index"
              items={health.notices}
              render={(notice) => (
                <li key={notice} className="health-notice" data-testid="health-notice">
                  {notice}
                </li>
              )}
            />
            <LinkIssues
              title="Broken links"
              links={health.broken}
              testId="health-broken-link"
              onOpen={openAt}
            />
            <LinkIssues
              title="Links naming an alias"
              links={health.aliasLinks}
              testId="health-alias-link"
              onOpen={openAt}
            />
            <LinkIssues
              title="Broken headings and blocks"
              links={health.brokenSubpaths}
              testId="health-broken-subpath"
              onOpen={openAt}
            />
            <LinkIssues
              title="Ambiguous links"
              links={health.ambiguous}
              testId="health-ambiguous-link"
              onOpen={openAt}
            />
            <IssueSection
              title="Warnings"
              items={health.warnings}
              render={(warning) => (
                <li key={`${warning.path}:${warning.message}`}>
                  <button
                    type="button"
                    className="health-item"
                    data-testid="health-warning"
                    disabled={!/\.md$/i.test(warning.path)}
                    onClick={() => openAt(warning.path, null)}
                  >
                    <span className="health-reason">{warning.message}</span>
                    <span className="health-where">{warning.path}</span>
                  </button>
                </li>
              )}
            />
          </>
        )}
      </div>
    </section>
  );
}
