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
import { memoryNamedWindowStore, NamedContextWindows, type NamedWindowStore } from './named-context-windows';

/** Where the windows servers named are kept, and who hears that the window changed. */
export interface ModelWindowOptions {
  named?: NamedWindowStore;
  /** Told the configured model's window whenever a server names one or a kept one is dropped. */
  onWindowChanged?: (window: ContextWindow) => void;
  now?: () => Date;
}

/**
 * The chat model as the rest of the app sees it: settings, keys, the provider's catalogue and the
 * resolved context window. Keys go from here to the provider and nowhere else.
 */
export class ModelService {
  private readonly windows: ContextWindowResolver;
  private readonly named: NamedContextWindows;

  constructor(
    private readonly settings: ModelSettingsStore,
    private readonly keys: ApiKeys,
    private readonly fetchImpl: FetchFunction = fetch,
    private readonly onChange: () => void = () => {},
    private readonly backgroundAllowed = true,
    private readonly windowOptions: ModelWindowOptions = {},
  ) {
    this.windows = new ContextWindowResolver(fetchImpl);
    this.named = new NamedContextWindows(windowOptions.named ?? memoryNamedWindowStore(), windowOptions.now);
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
    // A window the user sets replaces the one the server named.
    if (settings.contextWindow !== null) this.named.forget(settings);
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

  /**
   * The configured model's context window and where the figure came from: the user's setting, else one
   * the server named in a context-length error (kept until its metadata says otherwise), else what the
   * server reports, the provider lists, the known-models table or the fallback give. The status bar, the
   * meter, Settings, the CLI and every request's budget use this one figure.
   */
  async contextWindow(): Promise<ContextWindow> {
    const settings = this.settings.get();
    return this.named.apply(settings, await this.windows.resolve(settings, this.keys.key(settings)));
  }

  /** As `contextWindow`, but waits for the provider at most `ms`, then answers from what is known offline. */
  async contextWindowWithin(ms: number): Promise<ContextWindow> {
    const settings = this.settings.get();
    let timer: NodeJS.Timeout | undefined;
    const offline = new Promise<ContextWindow>((resolve) => {
      timer = setTimeout(() => resolve(offlineContextWindow(settings)), ms);
    });
    try {
      const resolved = await Promise.race([this.windows.resolve(settings, this.keys.key(settings)), offline]);
      return this.named.apply(settings, resolved);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The server refused a request as too long and named its window: it is kept for the server and model. */
  async windowNamed(tokens: number): Promise<void> {
    const settings = this.settings.get();
    const resolved = await this.windows.resolve(settings, this.keys.key(settings));
    if (resolved.source === 'user') return;
    this.named.named(settings, tokens, resolved);
    this.windowOptions.onWindowChanged?.(await this.contextWindow());
  }

  /** The server took a prompt of `tokens`: a kept window smaller than that was the server's old one. */
  async promptTaken(tokens: number): Promise<void> {
    if (this.named.taken(this.settings.get(), tokens)) {
      this.windowOptions.onWindowChanged?.(await this.contextWindow());
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
   * The model `name` on the chat model's server (a saved prompt's `model:`), with the chat model's key
   * and window; the chat model itself when it is the one named.
   */
  chatModelNamed(name: string): ChatModel {
    const settings = this.settings.get();
    if (name === settings.model) return this.chatModel();
    const key = this.keys.key(settings);
    // Its own window, as the server reports it for this model: the one set in Settings is the chat
    // model's. Ollama is sent it as num_ctx, and the answer is planned in it.
    const named = { ...settings, model: name, contextWindow: null };
    const window = () => this.windows.resolve(named, key);
    return { ...createChatModel(named, key, window), contextWindow: window };
  }

  /**
   * The names of the models the chat model's server offers, or null when it could not say within
   * `ms` (unreachable, no list): a saved prompt's `model:` is checked against them.
   */
  async offeredModels(ms = 3_000): Promise<string[] | null> {
    const settings = this.settings.get();
    if (settings.model.trim() === '') return null;
    const listed = listModels(settings, this.keys.key(settings), this.fetchImpl).then(
      (models) => models.map((model) => model.id),
      () => null,
    );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), ms);
    });
    try {
      return await Promise.race([listed, late]);
    } finally {
      clearTimeout(timer);
    }
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
