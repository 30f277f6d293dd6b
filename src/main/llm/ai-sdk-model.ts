import type { ContextWindow, ModelSettings } from '../../shared/chat-domain';
import { importOnFirstUse } from '../lazy-import';
import type { ChatModel } from './llm-types';
import { ContextWindowResolver } from './model-catalog';
import { modelCodeMissing } from './provider-sdks';

/** The AI SDK and the chat model built on it, loaded by the first answer asked (see sdk-chat-model.ts). */
const chatModelSdk = importOnFirstUse(
  'the AI SDK (ai) for chat models',
  () => import('./sdk-chat-model'),
  modelCodeMissing,
);

/**
 * A chat model behind the Vercel AI SDK: one streamed step per call, tools executed by the caller.
 * `contextWindow` gives the window Kasten plans with (the model service's, so both agree); Ollama's native
 * API is told to run the model with it unless the request names the window it was planned for. The SDK
 * and the provider's package are imported at the first call.
 */
export function createChatModel(
  settings: ModelSettings,
  apiKey: string | null,
  contextWindow: () => Promise<ContextWindow> = ownResolver(settings, apiKey),
): ChatModel {
  let model: ChatModel | null = null;
  return {
    name: settings.model,
    async *stream(request) {
      model ??= await (await chatModelSdk()).sdkChatModel(settings, apiKey, contextWindow);
      yield* model.stream(request);
    },
  };
}

/** The window of `settings`' model, asked once, for a model built without the model service. */
function ownResolver(settings: ModelSettings, apiKey: string | null): () => Promise<ContextWindow> {
  const resolver = new ContextWindowResolver();
  return () => resolver.resolve(settings, apiKey);
}
