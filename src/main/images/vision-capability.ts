import type { ModelSettings } from '../../shared/chat-domain';
import {
  isRecord,
  looksLikeOllama,
  requestJson,
  serverRoot,
  trimmedBaseUrl,
  type FetchFunction,
} from '../llm/model-list';
import { knownToSeeImages } from './known-vision-models';
import type { VisionChoice } from './vision-settings';

/** Where Kasten learned whether a model sees images. */
export type VisionSource = 'setting' | 'this-run' | 'ollama' | 'openrouter' | 'known-models';

export interface Vision {
  sees: boolean;
  source: VisionSource;
}

/** The key a model's vision setting is kept under: its provider, server and id. */
export function visionKey(settings: ModelSettings): string {
  return `${settings.provider} ${trimmedBaseUrl(settings)} ${settings.model}`;
}

/**
 * Whether the configured model takes images: the user's word (this run's `--vision`, then Settings),
 * else the provider's metadata — Ollama's `/api/show` `capabilities`, an OpenRouter-style `/models`
 * entry's `architecture.input_modalities` — else the known-models table. What a server said is asked
 * once per model for the life of the process.
 */
export class VisionCapability {
  private readonly asked = new Map<string, Promise<Vision | null>>();

  constructor(
    private readonly choice: (key: string) => VisionChoice,
    /** `--vision on|off`: wins over everything for this run. */
    private readonly thisRun: boolean | null = null,
    private readonly fetchImpl: FetchFunction = fetch,
  ) {}

  async of(settings: ModelSettings, apiKey: string | null): Promise<Vision> {
    if (this.thisRun !== null) return { sees: this.thisRun, source: 'this-run' };
    const key = visionKey(settings);
    const chosen = this.choice(key);
    if (chosen !== 'auto') return { sees: chosen === 'on', source: 'setting' };
    let told = this.asked.get(key);
    if (!told) {
      told = this.fromServer(settings, apiKey).catch(() => null);
      this.asked.set(key, told);
    }
    return (await told) ?? { sees: knownToSeeImages(settings.model), source: 'known-models' };
  }

  /** What the server says of the model; null when it says nothing (or cannot be reached). */
  private async fromServer(settings: ModelSettings, apiKey: string | null): Promise<Vision | null> {
    // Ollama's OpenAI-compatible API on its own port has /api/show beside /v1.
    if (looksLikeOllama(settings)) {
      const url = `${serverRoot(settings)}/api/show`;
      const show = await requestJson(
        settings,
        apiKey,
        { url, method: 'POST', body: { model: settings.model } },
        this.fetchImpl,
      );
      // Ollama lists capabilities since 0.6.4: "completion", "tools", "vision", "insert", "thinking"…
      if (!isRecord(show) || !Array.isArray(show.capabilities)) return null;
      return { sees: show.capabilities.includes('vision'), source: 'ollama' };
    }
    if (settings.provider === 'anthropic') return null;
    const url = `${trimmedBaseUrl(settings)}/models`;
    const list = await requestJson(settings, apiKey, { url }, this.fetchImpl);
    const data = isRecord(list) && Array.isArray(list.data) ? (list.data as unknown[]) : [];
    const entry = data.find((model) => isRecord(model) && model.id === settings.model);
    const architecture = isRecord(entry) ? entry.architecture : null;
    const modalities = isRecord(architecture) ? architecture.input_modalities : null;
    if (!Array.isArray(modalities)) return null;
    return { sees: modalities.includes('image'), source: 'openrouter' };
  }
}
