import { create } from 'zustand';
import type { ContextItemSettings, ToolInfo } from '../../../../shared/context-items-domain';
import { describeError, kasten } from '../../api';

interface ItemSettingsState {
  settings: ContextItemSettings | null;
  /** The vault's own tools, whose modes these settings set (MCP tools have theirs in MCP servers). */
  vaultTools: ToolInfo[];
  error: string | null;
  load(): Promise<void>;
  save(settings: ContextItemSettings): Promise<boolean>;
}

/** Settings → Context items of the open vault: rules folder, agent prompt, the vault tools' modes. */
export const useItemSettingsStore = create<ItemSettingsState>((set) => ({
  settings: null,
  vaultTools: [],
  error: null,
  async load() {
    try {
      set({ settings: await kasten.items.settings(), error: null });
      // Listing tools starts the MCP servers: a slow one must not hold up the rest of the form.
      const { tools } = await kasten.tools.list();
      set({ vaultTools: tools.filter((tool) => tool.source !== 'mcp') });
    } catch (error) {
      set({ error: describeError(error) });
    }
  },
  async save(settings) {
    try {
      set({ settings: await kasten.items.configure(settings), error: null });
      return true;
    } catch (error) {
      set({ error: describeError(error) });
      return false;
    }
  },
}));
