import type { ModelSettings, ProviderKind } from '../../../../shared/chat-domain';

/** A server Kasten knows how to reach, and where its key usually lives. */
export interface Preset {
  name: string;
  provider: ProviderKind;
  baseUrl: string;
  apiKeyEnv: string | null;
}

export const presets: Preset[] = [
  { name: 'Ollama', provider: 'ollama', baseUrl: 'http://127.0.0.1:11434', apiKeyEnv: null },
  // Settings saved before Kasten spoke Ollama's native API; it cannot set the window there.
  {
    name: 'Ollama (OpenAI-compatible API)',
    provider: 'openai-compatible',
    baseUrl: 'http://127.0.0.1:11434/v1',
    apiKeyEnv: null,
  },
  { name: 'LM Studio', provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:1234/v1', apiKeyEnv: null },
  {
    name: 'llama.cpp server',
    provider: 'openai-compatible',
    baseUrl: 'http://127.0.0.1:8080/v1',
    apiKeyEnv: null,
  },
  { name: 'vLLM', provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:8000/v1', apiKeyEnv: null },
  {
    name: 'OpenAI',
    provider: 'openai-compatible',
    baseUrl: 'https://api.openai.com/v1',
    apiKeyEnv: 'OPENAI_API_KEY',
  },
  {
    name: 'OpenRouter',
    provider: 'openai-compatible',
    baseUrl: 'https://openrouter.ai/api/v1',
    apiKeyEnv: 'OPENROUTER_API_KEY',
  },
  {
    name: 'Anthropic',
    provider: 'anthropic',
    baseUrl: 'https://api.anthropic.com/v1',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
  },
];

/** The preset a draft's provider and server match, or 'custom'. */
export function presetOf(draft: ModelSettings): string {
  return (
    presets.find((preset) => preset.provider === draft.provider && preset.baseUrl === draft.baseUrl)?.name ??
    'custom'
  );
}
