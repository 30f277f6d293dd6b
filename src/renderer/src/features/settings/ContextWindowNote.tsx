import type { ContextWindow, ContextWindowSource, ModelSettings } from '../../../../shared/chat-domain';
import { windowOrigin } from './window-origin';

/** Figures Ollama picks when it is asked through its OpenAI-compatible API, which cannot set the window. */
const ollamaInForce = new Set<ContextWindowSource>(['ollama-loaded', 'modelfile', 'ollama-default']);

/**
 * The saved model's context window, where the figure came from, and what the user can do about it: over
 * Ollama's OpenAI-compatible API Kasten can only follow Ollama's window, so it offers the native API.
 */
export function ContextWindowNote({
  saved,
  window,
  onUseNativeOllama,
}: {
  saved: ModelSettings;
  window: ContextWindow | null;
  onUseNativeOllama: () => void;
}) {
  if (!window) {
    return (
      <p className="field-note" data-testid="context-window">
        Resolving…
      </p>
    );
  }
  const native = saved.provider === 'ollama';
  const followsOllama =
    saved.provider === 'openai-compatible' &&
    (ollamaInForce.has(window.source) || (window.source === 'user' && isOllamaPort(saved.baseUrl)));
  return (
    <>
      <p className="field-note" data-testid="context-window">
        {window.tokens.toLocaleString()} tokens, {windowOrigin(window)}.
        {native && window.source !== 'ollama-num-ctx' && ' Kasten sets it on each request (num_ctx).'}
        {native && window.source === 'ollama-num-ctx' && ' A larger window needs more memory: set one here.'}
        {!native && !followsOllama && " Leave empty to use the server's own figure."}
      </p>
      {followsOllama && (
        <div className="field-note" data-testid="context-window-advice">
          <p>
            Ollama's OpenAI-compatible API cannot set the window
            {window.source === 'user'
              ? ': Ollama runs the model with its own, whatever is typed here.'
              : ', so Kasten plans with the one Ollama uses.'}{' '}
            With Ollama's native API Kasten sets it on each request.
          </p>
          <button type="button" onClick={onUseNativeOllama}>
            Switch to Ollama (native)
          </button>
        </div>
      )}
    </>
  );
}

function isOllamaPort(baseUrl: string): boolean {
  return URL.canParse(baseUrl) && new URL(baseUrl).port === '11434';
}
