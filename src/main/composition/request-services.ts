import { ChatStore } from '../chat/chat-store';
import { ContextEngine } from '../request/context-engine';
import type { ModelProfile } from '../request/context-types';
import { RequestCount } from '../request/request-count';
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
  // Items and attachments are counted before the session context exists (it plans with them): they and
  // the session context ask this one count.
  const count = new RequestCount(engine, profile, window);
  const tokensOf = (text: string) => count.tokensOf(text);
  const attachmentRoom = () => count.attachmentRoom();
  return { chatStore, engine, profile, window, count, tokensOf, attachmentRoom };
}

export type RequestServices = ReturnType<typeof requestServices>;
