import { Fragment } from 'react';
import type { ResolvedLink } from '../../../../shared/index-domain';
import { groupFacts, type HealthRow } from './health-rows';

export interface HealthRowActions {
  toggleSection(id: string): void;
  toggleGroup(id: string): void;
  /** Opens the note at `path`, at `line` when given. */
  open(path: string, line: number | null): void;
}

/**
 * A vault path, each folder and name isolated: a path through Arabic folders keeps its order, rather than
 * its Arabic names running together right to left.
 */
function PathText({ path, line }: { path: string; line: number | null }) {
  return (
    <span className="health-where" dir="auto">
      {path.split('/').map((part, index) => (
        <Fragment key={index}>
          {index > 0 && '/'}
          <bdi>{part}</bdi>
        </Fragment>
      ))}
      {line !== null && `:${line}`}
    </span>
  );
}

/** A link of an open group: where it is, as written, and why when the group gives no reason for all. */
function LinkRow({
  link,
  reasonShown,
  open,
}: {
  link: ResolvedLink;
  reasonShown: boolean;
  open: HealthRowActions['open'];
}) {
  return (
    <button
      type="button"
      className="health-item health-link"
      data-testid="health-link"
      data-kind={link.status}
      onClick={() => open(link.source, link.line)}
    >
      <PathText path={link.source} line={link.line} />
      <code className="health-raw" dir="auto">
        {link.raw}
      </code>
      {reasonShown && link.reason && (
        <span className="health-reason" dir="auto">
          {link.reason}
        </span>
      )}
      {link.fix && (
        <span className="health-fix" data-testid="health-fix">
          Write <code dir="auto">{link.fix}</code>
        </span>
      )}
    </button>
  );
}

/** One line of the health view (see healthRows); `link` is the row's link once its page was read. */
export function HealthRowView({
  row,
  link,
  actions,
}: {
  row: HealthRow;
  link: ResolvedLink | undefined;
  actions: HealthRowActions;
}) {
  switch (row.type) {
    case 'section':
      return (
        <h3 className="health-section">
          <button
            type="button"
            className="health-section-toggle"
            aria-expanded={!row.folded}
            data-testid="health-section"
            onClick={() => actions.toggleSection(row.section.id)}
          >
            <span className="health-caret" aria-hidden="true">
              {row.folded ? '▸' : '▾'}
            </span>
            <span>{row.section.title}</span>
            <span className="muted health-count">{row.section.count}</span>
          </button>
        </h3>
      );
    case 'group':
      return (
        <button
          type="button"
          className="health-item health-group"
          aria-expanded={row.expanded}
          data-testid="health-group"
          data-kind={row.kind}
          onClick={() => actions.toggleGroup(row.id)}
        >
          <span className="health-caret" aria-hidden="true">
            {row.expanded ? '▾' : '▸'}
          </span>
          <span className="health-group-text">
            <bdi className="health-target">{row.group.target}</bdi>
            {groupFacts(row.group).map((fact) => (
              <span key={fact} className="health-fact">
                {' — '}
                {fact}
              </span>
            ))}
            {row.group.reason && (
              <span className="health-reason" dir="auto">
                {row.group.reason}
              </span>
            )}
          </span>
        </button>
      );
    case 'link':
      return link ? (
        <LinkRow link={link} reasonShown={row.group.reason === null} open={actions.open} />
      ) : (
        <p className="health-item health-loading muted" data-testid="health-link-loading">
          Reading link {(row.index + 1).toLocaleString('en-US')}…
        </p>
      );
    case 'warning':
      return (
        <button
          type="button"
          className="health-item"
          data-testid="health-warning"
          disabled={!/\.md$/i.test(row.warning.path)}
          onClick={() => actions.open(row.warning.path, null)}
        >
          <PathText path={row.warning.path} line={null} />
          <span className="health-reason">{row.warning.message}</span>
        </button>
      );
    case 'notice':
      return (
        <p className="health-notice" data-testid="health-notice">
          {row.notice}
        </p>
      );
  }
}
