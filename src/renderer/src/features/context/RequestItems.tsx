import type { DroppedItem, RequestContext, RequestItem } from '../../../../shared/context-domain';
import { openReference } from '../references/open-reference';
import { formLabel, groupByKind, includeText, kindLabel } from './request-view';
import { exactTokens } from './token-format';

function ItemLabel({ item }: { item: RequestItem | DroppedItem }) {
  if (!item.path) return <span className="context-item-label">{item.label}</span>;
  const path = item.path;
  return (
    <button
      type="button"
      className="link-button context-item-label"
      title={`Open ${path}`}
      onClick={() => void openReference(path)}
    >
      {item.label}
    </button>
  );
}

/** How the item came in ("agent · 0.82"), and how much of it went in when not all of it. */
function ItemFacts({ item, kind }: { item: RequestItem | DroppedItem; kind: boolean }) {
  const form = 'form' in item ? formLabel(item.form) : null;
  return (
    <span className="context-item-facts">
      {kind && <span className="muted">{kindLabel(item.kind)}</span>}
      <span className={`include include-${item.include}`} data-testid="context-item-include">
        {includeText(item.include, item.score)}
      </span>
      {form && (
        <span className="context-item-form" data-testid="context-item-form">
          {form}
        </span>
      )}
    </span>
  );
}

/** What one request held, grouped by kind in prompt order, then what was left out and why. */
export function RequestItems({ request }: { request: RequestContext }) {
  return (
    <>
      <ul className="context-groups">
        {groupByKind(request.items).map((group) => (
          <li key={group.kind} className="context-group" data-testid="context-group" data-kind={group.kind}>
            <h5>
              <span>
                {group.label}
                {group.items.length > 1 && <span className="muted"> ({group.items.length})</span>}
              </span>
              <span className="context-item-tokens">{exactTokens(group.tokens)}</span>
            </h5>
            <ul className="context-items">
              {group.items.map((item, index) => (
                <li key={index} className="context-item" data-testid="context-item" data-kind={item.kind}>
                  <ItemLabel item={item} />
                  <ItemFacts item={item} kind={false} />
                  <span className="context-item-tokens">{exactTokens(item.tokens)}</span>
                  {item.reason && (
                    <span className="context-item-reason small" data-testid="context-item-reason">
                      {item.reason}
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      {request.dropped.length > 0 && (
        <section className="context-left-out" aria-label="Left out">
          <h5>Left out</h5>
          <ul className="context-items context-dropped">
            {request.dropped.map((item, index) => (
              <li key={index} className="context-item" data-testid="context-dropped" data-kind={item.kind}>
                <ItemLabel item={item} />
                <ItemFacts item={item} kind />
                <span className="context-item-tokens">{exactTokens(item.tokens)}</span>
                <span className="context-item-reason small">{item.reason}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
