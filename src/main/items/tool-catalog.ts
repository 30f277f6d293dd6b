import type { ItemInclude, ToolInfo } from '../../shared/context-items-domain';
import { toolDefinitionText } from '../request/count/token-counter';
import { toolSchemasOf } from '../request/sources/tool-schemas';
import type { LlmTool } from '../llm/llm-types';
import type { Tool } from '../tools/tool-registry';
import { mcpTool } from './mcp-tools';

/** A tool of an MCP server as the items module needs it (McpServers lists them so). */
export interface McpToolOffer {
  server: string;
  serverName: string;
  qualifiedName: string;
  description: string;
  inputSchema: Record<string, unknown>;
  include: ItemInclude;
}

/** The MCP servers as the items need them (McpServers is one). */
export interface McpToolSource {
  tools(signal?: AbortSignal): Promise<{ tools: McpToolOffer[]; notices: string[] }>;
  /** The tools of the servers running now, without starting any. */
  running(): McpToolOffer[];
  /** Where each server stands: one that failed or crashed is a notice in the panel. */
  statuses(): { name: string; state: string; message: string | null }[];
  call(name: string, input: unknown, signal: AbortSignal): Promise<{ ok: boolean; output: string }>;
}

/** A tool that may be offered, with its include mode and what its schema costs. */
export interface CatalogTool {
  tool: Tool;
  info: ToolInfo;
}

/** What a tool's schema costs in a request: its definition as sent, counted with `tokens`. */
function toolTokens(tool: LlmTool, tokens: (text: string) => number): number {
  return tokens(toolDefinitionText(toolSchemasOf([tool])[0]!));
}

/**
 * The vault's tools with the modes the settings give them, and the MCP servers' tools with theirs; each
 * schema counted with `tokens`, the context engine's count for the model.
 */
export function toolCatalog(
  vaultTools: readonly Tool[],
  modes: Readonly<Record<string, ItemInclude>>,
  mcp: readonly McpToolOffer[],
  tokens: (text: string) => number,
): CatalogTool[] {
  const vault = vaultTools.map((tool) => ({
    tool,
    info: {
      name: tool.name,
      source: tool.family === 'web' ? ('web' as const) : ('vault' as const),
      server: null,
      description: tool.description,
      include: modes[tool.name] ?? tool.include,
      tokens: toolTokens(tool, tokens),
    },
  }));
  const external = mcp.map((offer) => {
    const tool = mcpTool(offer);
    return {
      tool,
      info: {
        name: offer.qualifiedName,
        source: 'mcp' as const,
        server: { id: offer.server, name: offer.serverName },
        description: offer.description,
        include: offer.include,
        tokens: toolTokens(tool, tokens),
      },
    };
  });
  return [...vault, ...external];
}
