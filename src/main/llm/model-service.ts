import type { ContextWindow, ModelSettings } from '../../shared/chat-domain';
import type { Caller } from '../../shared/contract';
import type {
  ConnectionReport,
  ModelInfo,
  ModelSettingsRequest,
  ModelSetup,
  SummarySettings,
} from '../../shared/model-domain';
import { AppError } from '../app-error';
import type { ApiKeys } from './api-keys';
import { createChatModel } from './ai-sdk-model';
import type { ChatModel } from './llm-types';
import { ContextWindowResolver, listModels, offlineContextWindow, testConnection } from './model-catalog';
import { trimmedBaseUrl, type FetchFunction } from './model-list';
import type { ModelSettingsStore } from './model-settings';

/**
 * The chat model as the rest of the app sees it: settings, keys, the provider's catalogue and the
 * resolved context window. Keys go from here to the provider and nowhere else.
 */
export class ModelService {
  private readonly windows: ContextWindowResolver;

  constructor(
    private readonly settings: ModelSettingsStore,
    private readonly keys: ApiKeys,
    private readonly fetchImpl: FetchFunction = fetch,
    private readonly onChange: () => void = () => {},
    private readonly backgroundAllowed = true,
  ) {
    this.windows = new ContextWindowResolver(fetchImpl);
  }

  setup(): ModelSetup {
    const settings = this.settings.get();
    return {
      settings,
      key: this.keys.status(settings),
      summaries: this.settings.summaries(),
      backgroundAllowed: this.backgroundAllowed,
    };
  }

  /**
   * Saves the settings. Naming an environment variable that may not be read is refused; naming one for a
   * server its key was not confirmed for fails with `confirm-key` until the request says the user confirmed
   * at the machine, and from the browser host it is refused.
   */
  configure(request: ModelSettingsRequest, caller?: Caller): ModelSetup {
    const settings = this.admitted(request, caller);
    this.settings.set(settings);
    this.onChange();
    return this.setup();
  }

  /** Stores the key for the configured server (desktop only); null forgets it. */
  setKey(key: string | null): ModelSetup {
    this.keys.set(this.settings.get(), key);
    this.windows.forget();
    this.onChange();
    return this.setup();
  }

  setSummaries(summaries: SummarySettings): ModelSetup {
    this.settings.setSummaries(summaries);
    this.onChange();
    return this.setup();
  }

  /** The models `draft` (the saved settings when omitted) offers; a draft is admitted as `configure` does. */
  async list(draft?: ModelSettingsRequest, caller?: Caller): Promise<ModelInfo[]> {
    const settings = draft ? this.admitted(draft, caller) : this.settings.get();
    return listModels(settings, this.keys.key(settings), this.fetchImpl);
  }

  async test(draft?: ModelSettingsRequest, caller?: Caller): Promise<ConnectionReport> {
    const settings = draft ? this.admitted(draft, caller) : this.settings.get();
    this.windows.forget();
    return testConnection(settings, this.keys.key(settings), this.fetchImpl);
  }

  /** The configured model's context window and where the figure came from. */
  contextWindow(): Promise<ContextWindow> {
    const settings = this.settings.get();
    return this.windows.resolve(settings, this.keys.key(settings));
  }

  /** As `contextWindow`, but waits for the provider at most `ms`, then answers from what is known offline. */
  async contextWindowWithin(ms: number): Promise<ContextWindow> {
    let timer: NodeJS.Timeout | undefined;
    const offline = new Promise<ContextWindow>((resolve) => {
      timer = setTimeout(() => resolve(offlineContextWindow(this.settings.get())), ms);
    });
    try {
      return await Promise.race([this.contextWindow(), offline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The model to chat with; a user-facing error when none is chosen. */
  chatModel(): ChatModel {
    const model = this.configuredModel();
    if (!model) {
      throw new AppError(
        'invalid-input',
        'No chat model is chosen yet: pick a provider and a model in Settings.',
      );
    }
    return model;
  }

  /**
   * The chat model, or null when none is chosen. Over Ollama's native API it runs with the window
   * `contextWindow` reports, so what is planned for is what the server uses.
   */
  private configuredModel(): ChatModel | null {
    const settings = this.settings.get();
    if (settings.model.trim() === '') return null;
    const key = this.keys.key(settings);
    return createChatModel(settings, key, () => this.windows.resolve(settings, key));
  }

  /** The configured model's name, or null when none is chosen. */
  modelName(): string | null {
    const { model } = this.settings.get();
    return model.trim() === '' ? null : model;
  }

  /**
   * The model that writes summaries of notes and of compacted chats: the one chosen for them on the chat
   * model's server, else the chat model; null when neither is chosen.
   */
  summaryModel(): ChatModel | null {
    const settings = this.settings.get();
    const name = this.summaryModelName();
    if (name === null) return null;
    const key = this.keys.key(settings);
    const summarizing = { ...settings, model: name };
    // Over Ollama's native API it runs with the chat model's window: compactions are planned for that one.
    const planned = settings.model.trim() === '' ? summarizing : settings;
    return createChatModel(summarizing, key, () => this.windows.resolve(planned, key));
  }

  /** What summaries are cached under: the summary model's name and its server (see SummaryQueue). */
  summaryModelKey(): string | null {
    const name = this.summaryModelName();
    return name === null ? null : `${name} at ${trimmedBaseUrl(this.settings.get())}`;
  }

  /** The name of the model `summaryModel` gives, or null when neither it nor the chat model is chosen. */
  summaryModelName(): string | null {
    const { summaryModel } = this.settings.get();
    return summaryModel !== null && summaryModel.trim() !== '' ? summaryModel : this.modelName();
  }

  /** The settings of a request, once their key variable may be read and sent to their server. */
  private admitted({ confirmKey, ...settings }: ModelSettingsRequest, caller?: Caller): ModelSettings {
    this.keys.admit(settings, caller, confirmKey === true);
    return settings;
  }

  backgroundSummaries(): boolean {
    return this.backgroundAllowed && this.settings.summaries().background && this.summaryModelName() !== null;
  }
}
