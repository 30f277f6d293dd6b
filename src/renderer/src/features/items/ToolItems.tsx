import type { ToolInfo } from '../../../../shared/context-items-domain';
import { exactTokens } from '../context/token-format';
import { useSettingsStore } from '../settings/settings-store';
import { IncludeBadge } from './IncludeBadge';
import { ItemSwitch } from './ItemSwitch';

type ActiveTool = ToolInfo & { active: boolean };

/** The tools by where they come from: the vault's first, the web's, then each MCP server's. */
function groups(tools: ActiveTool[]): { name: string; tools: ActiveTool[] }[] {
  const byName = new Map<string, ActiveTool[]>();
  for (const tool of tools) {
    const name = tool.server ? `${tool.server.name} (MCP server)` : tool.source === 'web' ? 'Web' : 'Vault';
    byName.set(name, [...(byName.get(name) ?? []), tool]);
  }
  return [...byName].map(([name, list]) => ({ name, tools: list }));
}

/** A tool's name without `mcp__server__`: the server is the group's heading. */
function shortName(tool: ToolInfo): string {
  return tool.server ? tool.name.replace(/^mcp__.*?__/, '') : tool.name;
}

function state(tool: ActiveTool): string {
  if (tool.include === 'agent')
    return tool.active ? 'added to this chat' : 'offered when a question needs it';
  return tool.active ? 'offered in this chat' : 'not in this chat';
}

/** The tools the model may be offered, grouped by source, each with its mode, cost and switch. */
export function ToolItems({ tools }: { tools: ActiveTool[] }) {
  const hasServers = tools.some((tool) => tool.source === 'mcp');
  return (
    <>
      {groups(tools).map((group) => (
        // A group of tools all offered always has nothing to choose: it starts folded.
        <details
          key={group.name}
          className="item-group"
          data-testid="tool-group"
          open={group.tools.some((tool) => tool.include !== 'always')}
        >
          <summary>
            <h4>{group.name}</h4>
            <span className="items-summary">
              {group.tools.length} · {exactTokens(group.tools.reduce((sum, tool) => sum + tool.tokens, 0))}{' '}
              tokens
            </span>
          </summary>
          <ul className="item-list">
            {group.tools.map((tool) => (
              <li key={tool.name} className="item" data-testid="tool-item" data-active={tool.active}>
                <div className="item-line">
                  <span className="item-name item-code" title={tool.description}>
                    {shortName(tool)}
                  </span>
                  <span className="item-tokens small">{exactTokens(tool.tokens)} tokens</span>
                  {tool.include !== 'always' && (
                    <ItemSwitch kind="tool" itemKey={tool.name} name={shortName(tool)} on={tool.active} />
                  )}
                </div>
                <div className="item-facts small">
                  <IncludeBadge include={tool.include} />
                  {tool.include !== 'always' && <span className="muted">{state(tool)}</span>}
                </div>
              </li>
            ))}
          </ul>
        </details>
      ))}
      {!hasServers && (
        <p className="items-empty small">
          MCP servers give the model more tools (a calendar, a database, the web).{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => useSettingsStore.getState().show(true, 'mcp-servers')}
          >
            Add one in Settings
          </button>
          .
        </p>
      )}
    </>
  );
}
