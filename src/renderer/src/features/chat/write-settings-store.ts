import { create } from 'zustand';
import type { WriteSettings } from '../../../../shared/chat-domain';
import type { ChatWriteChoice } from '../../../../shared/chat-writes-contract';
import { describeError, kasten } from '../../api';

interface WriteSettingsState {
  /** The open vault's switch as main has it; null until read. */
  settings: WriteSettings | null;
  error: string | null;
  /** The choice of a chat not started yet: sent with its first message, then main has it. */
  newChat: ChatWriteChoice;
  load(): Promise<void>;
  setEnabled(enabled: boolean): Promise<void>;
  setNewChat(choice: ChatWriteChoice): void;
}

/** Counts requests: an answer that a later request overtook is dropped, so the switch never jumps back. */
let latest = 0;

/** Whether the model may propose changes to the open vault, mirrored from the main process. */
export const useWriteSettingsStore = create<WriteSettingsState>((set, get) => ({
  settings: null,
  error: null,
  newChat: 'ask',
  async load() {
    const request = ++latest;
    try {
      const settings = await kasten.writes.status();
      if (request === latest) set({ settings, error: null });
    } catch (error) {
      if (request === latest) set({ error: describeError(error) });
    }
  },
  async setEnabled(enabled) {
    const request = ++latest;
    // The switch moves at once; main's answer (or, on failure, what it had) settles it.
    const before = get().settings;
    if (before) set({ settings: { ...before, enabled } });
    try {
      const settings = await kasten.writes.configure({ enabled });
      if (request === latest) set({ settings, error: null });
    } catch (error) {
      if (request === latest) set({ settings: before, error: describeError(error) });
    }
  },
  setNewChat(choice) {
    set({ newChat: choice });
  },
}));
