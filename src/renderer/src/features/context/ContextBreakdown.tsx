import { useEffect, useRef } from 'react';
import { contextStrategies, type ContextStrategy } from '../../../../shared/context-domain';
import { useChatStore } from '../chat/chat-store';
import { windowOrigin } from '../settings/window-origin';
import { partSegments } from './context-parts';
import { useContextStore } from './context-store';
import { calibrationText, exactTokens, reportedText } from './token-format';

const strategyHelp: Record<ContextStrategy, string> = {
  discard: 'Drops the oldest messages that do not fit.',
  summarize: 'Summarizes older messages once the conversation passes 80% of usable.',
  hybrid: 'Masks old tool results, then summarizes, keeping pinned items and recent turns first.',
};

/** The popover of the context meter: the next request by part, the numbers behind it, and its controls. */
export function ContextBreakdown({ onClose }: { onClose: () => void }) {
  const status = useContextStore((state) => state.status);
  const error = useContextStore((state) => state.error);
  const compacting = useContextStore((state) => state.compacting);
  const result = useContextStore((state) => state.compactResult);
  const { compact, setStrategy } = useContextStore.getState();
  const sessionId = useChatStore((state) => state.session?.id ?? null);
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => dialog.current?.focus(), []);

  const segments = status ? partSegments(status.parts, status.window) : [];
  const usableAt = status && status.window > 0 ? Math.min(100, (status.usable / status.window) * 100) : 100;
  const shownResult = result && result.sessionId === sessionId ? result : null;

  return (
    <div
      ref={dialog}
      className="context-popover"
      role="dialog"
      aria-label="Context breakdown"
      data-testid="context-popover"
      tabIndex={-1}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        onClose();
      }}
    >
      <header className="context-popover-header">
        <h3>Context{status ? ` · ${status.model}` : ''}</h3>
        <button type="button" className="link-button" onClick={onClose}>
          Close
        </button>
      </header>
      {!status ? (
        <p className={error ? 'error' : 'muted'}>{error ?? 'Reading the context…'}</p>
      ) : (
        <>
          <div
            className="context-stack"
            role="img"
            aria-label={`Tokens by part: ${segments.map((s) => `${s.label} ${s.tokens}`).join(', ') || 'none'}`}
          >
            {segments.map((segment) => (
              <span
                key={segment.part}
                className={`context-stack-part part-${segment.part}`}
                style={{ width: `${segment.percent}%` }}
                title={`${segment.label}: ${exactTokens(segment.tokens)} tokens`}
              />
            ))}
            <span className="context-stack-usable" style={{ left: `${usableAt}%` }} />
          </div>
          <table className="context-parts" data-testid="context-parts">
            <thead>
              <tr>
                <th scope="col">Part</th>
                <th scope="col">Tokens</th>
              </tr>
            </thead>
            <tbody>
              {segments.map((segment) => (
                <tr key={segment.part} data-testid="context-part" data-part={segment.part}>
                  <th scope="row">
                    <span className={`context-swatch part-${segment.part}`} aria-hidden="true" />
                    {segment.label}
                  </th>
                  <td>{exactTokens(segment.tokens)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Estimate</th>
                <td data-testid="context-estimate">{exactTokens(status.estimated)}</td>
              </tr>
            </tfoot>
          </table>
          <dl className="context-facts">
            <dt>Window</dt>
            <dd>
              {exactTokens(status.window)}{' '}
              <span className="muted" data-testid="context-window-origin">
                {windowOrigin({ source: status.windowSource, namedAt: status.windowNamedAt ?? undefined })}
              </span>
            </dd>
            <dt>Usable</dt>
            <dd>
              {exactTokens(status.usable)} <span className="muted">after the reply’s share and a margin</span>
            </dd>
            <dt>This message</dt>
            <dd data-testid="context-draft">
              {/* Counted by the same reading as the parts: nothing typed or attached is no message yet. */}
              {status.draftTokens === 0 ? (
                <span className="muted">nothing typed</span>
              ) : (
                `${exactTokens(status.draftTokens)} tokens`
              )}
            </dd>
            <dt>Last prompt</dt>
            <dd data-testid="context-reported">{reportedText(status.reported)}</dd>
            <dt>Calibration</dt>
            <dd data-testid="context-calibration">{calibrationText(status.calibration)}</dd>
            <dt>Compactions</dt>
            <dd data-testid="context-compactions">{status.compactions}</dd>
          </dl>
          <div className="context-controls">
            <label>
              Strategy{' '}
              <select
                value={status.strategy}
                disabled={sessionId === null}
                data-testid="context-strategy"
                onChange={(event) => {
                  const chosen = contextStrategies.find((strategy) => strategy === event.target.value);
                  if (chosen) void setStrategy(chosen);
                }}
              >
                {contextStrategies.map((strategy) => (
                  <option key={strategy} value={strategy}>
                    {strategy}
                  </option>
                ))}
              </select>
            </label>
            {/* Not disabled while compacting: a disabled button drops focus, and Escape with it. */}
            <button
              type="button"
              disabled={sessionId === null}
              aria-disabled={compacting}
              onClick={() => {
                if (!compacting) void compact(null);
              }}
            >
              {compacting ? 'Compacting…' : 'Compact now'}
            </button>
          </div>
          <p className="muted small context-help">
            {sessionId === null
              ? 'A new chat: its strategy can be chosen once it starts.'
              : strategyHelp[status.strategy]}
          </p>
          {error && <p className="error small">{error}</p>}
          {shownResult && (
            <p
              className={shownResult.failed ? 'error small' : 'small'}
              role={shownResult.failed ? 'alert' : 'status'}
              data-testid="context-compact-result"
            >
              {shownResult.text}
            </p>
          )}
        </>
      )}
    </div>
  );
}
