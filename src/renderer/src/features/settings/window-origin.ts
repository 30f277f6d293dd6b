import type { ContextWindow, ContextWindowSource } from '../../../../shared/chat-domain';

/** Where a context window figure came from, in words that follow "from". */
const windowSources: Record<ContextWindowSource, string> = {
  user: 'your setting',
  'ollama-num-ctx': "Kasten's default, set on each request (num_ctx)",
  modelfile: "the model's Modelfile (num_ctx)",
  'ollama-loaded': 'the window Ollama has the model loaded with',
  'ollama-default': "Ollama's default, which its OpenAI-compatible API cannot change",
  'server-loaded': 'the window the server runs the model with',
  provider: "the provider's model list",
  'server-error': 'the server, which named it when it refused a request',
  'known-model': 'the known-models table',
  fallback: 'the fallback: nothing better is known',
};

/**
 * Where a window figure came from, as the status bar, the meter and Settings all say it: "named by the
 * server on 27 Nov" for one a server named in a refusal, else "from your setting", "from the fallback…".
 */
export function windowOrigin(window: Pick<ContextWindow, 'source' | 'namedAt'>): string {
  if (window.source === 'server-error' && window.namedAt) {
    const day = new Date(window.namedAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });
    return `named by the server on ${day}`;
  }
  return `from ${windowSources[window.source]}`;
}
