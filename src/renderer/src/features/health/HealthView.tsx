import type { ResolvedLink } from '../../../../shared/index-domain';
import { useNoteStore } from '../notes/note-store';
import { issueCount, useHealthStore } from './health-store';

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
  if (links.length === 0) return null;
  return (
    <section className="health-section">
      <h3>
        {title} <span className="muted">{links.length}</span>
      </h3>
      <ul>
        {links.map((link) => (
          <li key={`${link.source}:${link.line}:${link.column}`}>
            <button
              type="button"
              className="health-item"
              data-testid={testId}
              onClick={() => onOpen(link.source, link.line)}
            >
              <code>{link.raw}</code>
              <span className="health-reason">{link.reason}</span>
              <span className="health-where">
                {link.source}:{link.line}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Vault health: everything in the vault that needs the user's attention; a click opens the spot. */
export function HealthView() {
  const { health, error, show } = useHealthStore();
  const open = useNoteStore((state) => state.open);
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
        {health && issueCount(health) === 0 && (
          <p className="muted">Every link resolves and every file was read cleanly.</p>
        )}
        {health && (
          <>
            {health.notices.length > 0 && (
              <section className="health-section">
                <h3>Index</h3>
                <ul>
                  {health.notices.map((notice) => (
                    <li key={notice} className="health-notice" data-testid="health-notice">
                      {notice}
                    </li>
                  ))}
                </ul>
              </section>
            )}
            <LinkIssues
              title="Broken links"
              links={health.broken}
              testId="health-broken-link"
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
            {health.warnings.length > 0 && (
              <section className="health-section">
                <h3>
                  Warnings <span className="muted">{health.warnings.length}</span>
                </h3>
                <ul>
                  {health.warnings.map((warning) => (
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
                  ))}
                </ul>
              </section>
            )}
          </>
        )}
      </div>
    </section>
  );
}
