import { useState } from 'react';
import type { McpIncludeMode, McpServerConfig, McpServerStatus } from '../../../../shared/mcp-domain';
import { includeNames } from '../../components/IncludeOptions';

const stateNames: Record<McpServerStatus['state'], string> = {
  stopped: 'not started',
  starting: 'starting…',
  ready: 'ready',
  failed: 'failed',
  crashed: 'crashed',
};

function where(server: McpServerConfig): string {
  return server.transport === 'stdio' ? [server.command, ...server.args].join(' ') : server.url;
}

/** One configured server: its state and message, its tools with their modes, Edit and Remove. */
export function McpServerCard({
  server,
  status,
  unconfirmed,
  onConfirm,
  onEdit,
  onRemove,
  onToolMode,
}: {
  server: McpServerConfig;
  status: McpServerStatus | null;
  /** Why its command is never run, when it was not confirmed at this machine. */
  unconfirmed: string | null;
  /** Confirms its command; null where that cannot be done (the browser host). */
  onConfirm: (() => void) | null;
  onEdit: () => void;
  onRemove: () => void;
  /** A tool's own mode; null: the server's. */
  onToolMode: (tool: string, include: McpIncludeMode | null) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const state = server.enabled ? (status?.state ?? 'stopped') : null;
  const shown = unconfirmed ? 'not confirmed' : state ? stateNames[state] : 'turned off';
  return (
    <li className="mcp-server" data-testid="mcp-server" aria-label={server.name}>
      <div className="mcp-server-head">
        <strong>{server.name}</strong>
        <span
          className={`mcp-state mcp-state-${unconfirmed ? 'failed' : (state ?? 'off')}`}
          data-testid="mcp-state"
        >
          {shown}
        </span>
        <span className="status-spacer" />
        {unconfirmed && onConfirm && (
          <button type="button" onClick={onConfirm}>
            Confirm
          </button>
        )}
        <button type="button" onClick={onEdit}>
          Edit
        </button>
        {confirming ? (
          <button type="button" className="danger" onClick={onRemove}>
            Remove it
          </button>
        ) : (
          <button type="button" onClick={() => setConfirming(true)}>
            Remove
          </button>
        )}
      </div>
      <p className="mcp-where small muted" title={where(server)}>
        {where(server)}
      </p>
      {unconfirmed && (
        <p className="small error" role="status">
          {unconfirmed}
        </p>
      )}
      {status?.message && (
        <p className={`small ${state === 'failed' || state === 'crashed' ? 'error' : 'muted'}`} role="status">
          {status.message}
        </p>
      )}
      {state === 'stopped' && !unconfirmed && (
        <p className="small muted">It starts when a chat first needs its tools.</p>
      )}
      {status && status.tools.length > 0 && (
        <ul className="tool-modes" aria-label={`Tools of ${server.name}`}>
          {status.tools.map((tool) => (
            <li key={tool.name} data-testid="mcp-tool">
              <span className="tool-name" title={tool.description}>
                {tool.name}
              </span>
              <select
                aria-label={`When ${tool.name} is offered`}
                value={server.tools[tool.name] ?? ''}
                onChange={(event) =>
                  onToolMode(tool.name, (event.target.value || null) as McpIncludeMode | null)
                }
              >
                <option value="">as the server: {server.include}</option>
                {(Object.keys(includeNames) as McpIncludeMode[]).map((include) => (
                  <option key={include} value={include}>
                    {include}
                  </option>
                ))}
              </select>
              <span className="tool-description small muted">{tool.description}</span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
