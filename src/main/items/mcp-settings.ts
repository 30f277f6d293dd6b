import { mcpServerConfigsSchema, type McpServerConfig } from '../../shared/mcp-domain';
import type { SqliteDatabase } from '../storage/database';
import { SettingsTable } from '../storage/settings-table';
import type { CommandConfirmations } from './mcp-commands';

const key = 'mcp:servers';
const confirmationsKey = 'mcp:confirmed-commands';

/** The MCP servers configured in Settings: the same for every vault, kept in the app database. */
export class McpSettingsStore {
  private readonly table: SettingsTable;

  constructor(db: SqliteDatabase) {
    this.table = new SettingsTable(db);
  }

  get(): McpServerConfig[] {
    const stored = this.table.get(key);
    if (stored === null) return [];
    // Written by a later version, or edited by hand: servers that cannot be read are not started.
    const parsed = mcpServerConfigsSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : [];
  }

  /** Each stdio server's command as confirmed at the machine (see mcp-commands). */
  confirmations(): CommandConfirmations {
    const stored = this.table.get(confirmationsKey);
    const parsed: unknown = stored === null ? {} : JSON.parse(stored);
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  }

  set(servers: McpServerConfig[], confirmations: CommandConfirmations): McpServerConfig[] {
    const parsed = mcpServerConfigsSchema.parse(servers);
    this.table.put(key, JSON.stringify(parsed));
    this.table.put(confirmationsKey, JSON.stringify(confirmations));
    return this.get();
  }
}
