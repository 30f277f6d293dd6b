import { ChatStore } from '../chat/chat-store';
import { ContextEngine } from '../request/context-engine';
import type { ModelProfile } from '../request/context-types';
import type { SqliteDatabase } from '../storage/database';
import type { ModelServices } from './model-services';

/**
 * The context engine for the configured model: its profile and window, and the count and room every
 * source of a request is sized with.
 */
export function requestServices(db: SqliteDatabase, { settings, models }: ModelServices) {
  const chatStore = new ChatStore(db);
  const engine = new ContextEngine({ calibrations: chatStore.contexts });
  const profile = (): ModelProfile => {
    const chosen = settings.get();
    // Calibration is learned per server and model: the same model name elsewhere may count otherwise.
    return {
      key: `${chosen.provider} ${chosen.baseUrl} ${chosen.model}`,
      model: chosen.model,
      provider: chosen.provider === 'anthropic' ? 'anthropic' : 'openai-compatible',
    };
  };
  const window = () => models.contextWindowWithin(2_000);
  // Items and attachments are counted before the session context exists (it plans with them): with the
  // engine, profile and window it is given, these are its tokensOf and attachmentRoom.
  const tokensOf = (text: string) => engine.estimate(profile(), text).calibrated;
  const attachmentRoom = async () => {
    const budget = engine.budget(profile(), (await window()).tokens);
    return { tokens: budget.itemCap, window: budget.window };
  };
  return { chatStore, engine, profile, window, tokensOf, attachmentRoom };
}

export type RequestServices = ReturnType<typeof requestServices>;
