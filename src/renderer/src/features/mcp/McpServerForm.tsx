import { useState } from 'react';
import { mcpCommandRefusal, type McpIncludeMode, type McpServerConfig } from '../../../../shared/mcp-domain';
import { IncludeOptions } from '../../components/IncludeOptions';
import { configOf, draftOf, emptyDraft, type ServerDraft } from './mcp-server-draft';

/** Adds a server or edits one: a program run over stdio, or a URL over HTTP; saved with the others. */
export function McpServerForm({
  editing,
  others,
  commandsAllowed,
  onSave,
  onCancel,
}: {
  editing: McpServerConfig | null;
  others: McpServerConfig[];
  /** Whether a command may be added or changed here: at the machine, not in the browser host. */
  commandsAllowed: boolean;
  /** Resolves with main's refusal, or null once saved. */
  onSave: (config: McpServerConfig) => Promise<string | null>;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<ServerDraft>(
    editing ? draftOf(editing) : commandsAllowed ? emptyDraft : { ...emptyDraft, transport: 'http' },
  );
  const commandLocked = !commandsAllowed;
  const [error, setError] = useState<string | null>(null);
  const change = (patch: Partial<ServerDraft>) => setDraft({ ...draft, ...patch });
  const submit = async () => {
    const result = configOf(draft, others, editing);
    if ('error' in result) return setError(result.error);
    setError(await onSave(result.config));
  };
  return (
    <form
      className="mcp-form"
      aria-label={editing ? `Edit ${editing.name}` : 'New MCP server'}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h4>{editing ? `Edit “${editing.name}”` : 'New MCP server'}</h4>
      <label className="field">
        <span>Name</span>
        <input value={draft.name} onChange={(event) => change({ name: event.target.value })} />
      </label>
      <fieldset className="mcp-transport">
        <legend className="visually-hidden">How Kasten reaches it</legend>
        <label className="checkbox">
          <input
            type="radio"
            name="transport"
            checked={draft.transport === 'stdio'}
            disabled={commandLocked && editing?.transport !== 'stdio'}
            onChange={() => change({ transport: 'stdio' })}
          />
          A program on this computer (stdio)
        </label>
        <label className="checkbox">
          <input
            type="radio"
            name="transport"
            checked={draft.transport === 'http'}
            disabled={commandLocked && editing?.transport === 'stdio'}
            onChange={() => change({ transport: 'http' })}
          />
          A server at a URL (HTTP)
        </label>
      </fieldset>
      {commandLocked && (
        <p className="field-note" data-testid="mcp-command-locked">
          {mcpCommandRefusal}
        </p>
      )}
      {draft.transport === 'stdio' ? (
        <fieldset className="mcp-command" disabled={commandLocked}>
          <legend className="visually-hidden">The program</legend>
          <label className="field">
            <span>Command</span>
            <input
              value={draft.command}
              placeholder="e.g. npx or /usr/bin/python3"
              spellCheck={false}
              onChange={(event) => change({ command: event.target.value })}
            />
          </label>
          <label className="field">
            <span>Arguments, one per line</span>
            <textarea
              rows={3}
              value={draft.args}
              spellCheck={false}
              onChange={(event) => change({ args: event.target.value })}
            />
          </label>
          <label className="field">
            <span>Environment, KEY=VALUE lines</span>
            <textarea
              rows={2}
              value={draft.env}
              spellCheck={false}
              placeholder="The program gets only these besides PATH and HOME"
              onChange={(event) => change({ env: event.target.value })}
            />
          </label>
        </fieldset>
      ) : (
        <label className="field">
          <span>URL</span>
          <input
            value={draft.url}
            placeholder="http://127.0.0.1:8000/mcp"
            spellCheck={false}
            onChange={(event) => change({ url: event.target.value })}
          />
        </label>
      )}
      <label className="field">
        <span>Its tools are offered</span>
        <select
          value={draft.include}
          onChange={(event) => change({ include: event.target.value as McpIncludeMode })}
        >
          <IncludeOptions />
        </select>
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={draft.enabled}
          onChange={(event) => change({ enabled: event.target.checked })}
        />
        Turned on
      </label>
      {error && (
        <p className="field-note error" role="alert">
          {error}
        </p>
      )}
      <div className="field-row">
        <button type="submit" className="primary">
          Save server
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
