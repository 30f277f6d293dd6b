import { create } from 'zustand';
import type { McpServersView } from '../../../../shared/items-contract';
import type { McpServerConfig } from '../../../../shared/mcp-domain';
import { describeError, kasten } from '../../api';

interface McpState {
  view: McpServersView | null;
  error: string | null;
  saving: boolean;
  load(): Promise<void>;
  /** Saves the whole list (confirming the commands of `confirm`); resolves with main's refusal, or null. */
  save(servers: McpServerConfig[], confirm?: string[]): Promise<string | null>;
  /** Follows the servers' states while Settings shows them; returns the function that stops. */
  watch(): () => void;
}

/** The MCP servers as configured and where each stands (starting, ready, failed…), mirrored from main. */
export const useMcpStore = create<McpState>((set, get) => ({
  view: null,
  error: null,
  saving: false,
  async load() {
    try {
      set({ view: await kasten.mcp.servers(), error: null });
    } catch (error) {
      set({ error: describeError(error) });
    }
  },
  async save(servers, confirm) {
    set({ saving: true });
    try {
      set({ view: await kasten.mcp.configure({ servers, confirm }), error: null });
      // Servers start when their tools are first wanted: asking for them now shows at once whether they work.
      void kasten.tools.list().then(
        () => get().load(),
        () => get().load(),
      );
      return null;
    } catch (error) {
      return describeError(error);
    } finally {
      set({ saving: false });
    }
  },
  watch() {
    return kasten.items.onChanged(({ sessionId }) => {
      if (sessionId === null) void get().load();
    });
  },
}));
