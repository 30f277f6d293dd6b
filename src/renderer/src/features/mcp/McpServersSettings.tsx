import { useEffect, useRef, useState } from 'react';
import type { McpIncludeMode, McpServerConfig } from '../../../../shared/mcp-domain';
import { useSettingsStore } from '../settings/settings-store';
import { McpServerCard } from './McpServerCard';
import { McpServerForm } from './McpServerForm';
import { useMcpStore } from './mcp-store';
import './mcp.css';

/** Settings → MCP servers: the servers whose tools the model may use, their states, and a form for each. */
export function McpServersSettings() {
  const view = useMcpStore((state) => state.view);
  const loadError = useMcpStore((state) => state.error);
  const { load, save, watch } = useMcpStore.getState();
  /** The server the form edits: one of the list (by id), a new one, or none (no form). */
  const [editing, setEditing] = useState<{ id: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    void load();
    return watch();
  }, [load, watch]);
  useEffect(() => {
    if (view && useSettingsStore.getState().section === 'mcp-servers')
      section.current?.scrollIntoView({ block: 'start' });
  }, [view]);

  const servers = view?.servers ?? [];
  const commandsAllowed = view?.commandsAllowed ?? false;
  const saveList = async (list: McpServerConfig[], confirm?: string[]) => {
    const refusal = await save(list, confirm);
    setError(refusal);
    return refusal;
  };
  const replace = (config: McpServerConfig) =>
    servers.some((server) => server.id === config.id)
      ? servers.map((server) => (server.id === config.id ? config : server))
      : [...servers, config];
  const toolMode = (server: McpServerConfig, tool: string, include: McpIncludeMode | null) => {
    const { [tool]: _old, ...tools } = server.tools;
    void saveList(replace({ ...server, tools: include ? { ...tools, [tool]: include } : tools }));
  };
  const edited = servers.find((server) => server.id === editing?.id) ?? null;

  return (
    <section className="settings-section mcp-settings" aria-label="MCP servers" ref={section}>
      <h3>MCP servers</h3>
      <p className="field-note">
        An MCP server gives the model more tools: a program Kasten starts on this computer, or a server at a
        URL. What its tools return is shown to the model as data, never as instructions.
      </p>
      {loadError && <p className="field-note error">{loadError}</p>}
      {view && servers.length === 0 && editing === null && <p className="field-note">No servers yet.</p>}
      <ul className="mcp-servers">
        {servers.map((server) =>
          editing?.id === server.id ? null : (
            <McpServerCard
              key={server.id}
              server={server}
              status={view?.statuses.find((status) => status.id === server.id) ?? null}
              unconfirmed={view?.unconfirmed.find((entry) => entry.id === server.id)?.reason ?? null}
              onConfirm={commandsAllowed ? () => void saveList(servers, [server.id]) : null}
              onEdit={() => setEditing({ id: server.id })}
              onRemove={() => void saveList(servers.filter((other) => other.id !== server.id))}
              onToolMode={(tool, include) => toolMode(server, tool, include)}
            />
          ),
        )}
      </ul>
      {editing !== null && (
        <McpServerForm
          key={editing.id ?? 'new'}
          editing={edited}
          others={servers.filter((server) => server.id !== editing.id)}
          commandsAllowed={commandsAllowed}
          onSave={async (config) => {
            const refusal = await saveList(replace(config));
            if (!refusal) setEditing(null);
            return refusal;
          }}
          onCancel={() => setEditing(null)}
        />
      )}
      {error && editing === null && (
        <p className="field-note error" role="alert">
          {error}
        </p>
      )}
      {editing === null && (
        <div className="field-row">
          <button type="button" onClick={() => setEditing({ id: null })}>
            Add a server
          </button>
        </div>
      )}
    </section>
  );
}
