import { mcpServerConfigsSchema, type McpServerConfig } from '../../shared/mcp-domain';
import type { SqliteDatabase } from '../storage/database';
import { SettingsTable } from '../storage/settings-table';

const key = 'mcp:servers';

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

  set(servers: McpServerConfig[]): McpServerConfig[] {
    this.table.put(key, JSON.stringify(mcpServerConfigsSchema.parse(servers)));
    return this.get();
  }
}
