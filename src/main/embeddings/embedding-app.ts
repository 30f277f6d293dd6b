import type { ModelSettings } from '../../shared/chat-domain';
import type { EmbeddingSettings } from '../../shared/embedding-domain';
import type { AppEvents } from '../app-events';
import type { SqliteDatabase } from '../storage/database';
import { BackgroundEmbeddings } from './background-embeddings';
import { embeddingHandlers, type EmbeddingHandlersOptions } from './embedding-handlers';
import { EmbeddingService } from './embedding-service';
import { EmbeddingSettingsStore, embeddingModelOf, sameServer } from './embedding-settings';
import { TextVectors } from './text-vectors';

export interface EmbeddingsOptions {
  db: SqliteDatabase;
  events: AppEvents;
  index: EmbeddingHandlersOptions['index'] &
    ConstructorParameters<typeof EmbeddingService>[0]['index'] & {
      /** Whether this process writes the vault's index (another one may: see IndexFollower). */
      writes(): boolean;
    };
  readNote: (path: string) => Promise<{ content: string }>;
  /** The API keys: the embedding server gets the key confirmed for it. */
  keys: EmbeddingHandlersOptions['keys'] & { key(settings: ModelSettings): string | null };
  /** The chat model's settings and whether an answer streams: embedding pauses on a shared server. */
  chat: { settings: () => ModelSettings; answering: () => boolean };
  /** Settings for this run that win over the stored ones (CLI flags). */
  overrides?: Partial<EmbeddingSettings>;
  /** Embed in the background when the vault opens and after edits (default true). */
  background?: boolean;
}

/** The embedding side of the app: its settings, the service, the background runs and their handlers. */
export function createEmbeddings(options: EmbeddingsOptions) {
  const settings = new EmbeddingSettingsStore(options.db, options.overrides);
  const model = embeddingModelOf(
    () => settings.get(),
    (model) => options.keys.key(model),
  );
  const service = new EmbeddingService({
    index: options.index,
    readNote: options.readNote,
    settings: () => settings.get(),
    model,
    busy: () => options.chat.answering() && sameServer(options.chat.settings(), settings.get()),
    onProgress: (progress) => options.events.emit('embeddings:progress', progress),
    onNotice: (message) => console.warn(`Embeddings: ${message}`),
  });
  const background = new BackgroundEmbeddings({
    service,
    events: options.events,
    // Another process writing this vault's index embeds it: one is enough.
    enabled: () => options.background !== false && settings.get().enabled && options.index.writes(),
  });
  const { handlers, search, related } = embeddingHandlers({
    service,
    settings,
    background,
    keys: options.keys,
    index: options.index,
  });
  return {
    service,
    settings,
    handlers,
    /** Search in a mode, with why it answered lexically (`lexicalOnly`). */
    search,
    related,
    /** Vectors of texts that are not notes: what `agent` context items are chosen by. */
    texts: new TextVectors(model),
    start: () => background.start(),
    async stop() {
      background.stop();
      await service.dispose();
    },
  };
}

export type Embeddings = ReturnType<typeof createEmbeddings>;
