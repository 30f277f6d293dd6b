import type { AppEvents } from '../app-events';
import { BackgroundEmbeddings } from '../embeddings/background-embeddings';
import { embeddingHandlers } from '../embeddings/embedding-handlers';
import { EmbeddingService } from '../embeddings/embedding-service';
import { EmbeddingSettingsStore, embeddingModelOf, sameServer } from '../embeddings/embedding-settings';
import { TextVectors } from '../embeddings/text-vectors';
import { asModelSettings } from '../llm/embedding-model';
import type { AppOptions } from './app-options';
import type { ModelServices } from './model-services';
import type { VaultServices } from './vault-services';

/** The embedding model's settings, the vault's vectors, search in every mode and related notes. */
export function embeddingServices(
  options: AppOptions,
  { db, index, readNote }: VaultServices,
  { settings: chatSettings, keys }: ModelServices,
  events: AppEvents,
) {
  const settings = new EmbeddingSettingsStore(db, options.embeddings);
  if (options.embeddings?.apiKeyEnv) keys.pairAtLaunch(asModelSettings(settings.get()));
  const model = embeddingModelOf(
    () => settings.get(),
    (model) => keys.key(model),
  );
  // Chat searches with these services, so they cannot ask chat whether it answers: answers say so on
  // the bus, and embedding pauses while one runs on the same server.
  const answering = new Set<string>();
  const stopHearing = events.on('chat:answering', ({ sessionId, answering: running }) => {
    if (running) answering.add(sessionId);
    else answering.delete(sessionId);
  });
  const service = new EmbeddingService({
    index,
    readNote,
    settings: () => settings.get(),
    model,
    busy: () => answering.size > 0 && sameServer(chatSettings.get(), settings.get()),
    onProgress: (progress) => events.emit('embeddings:progress', progress),
    onNotice: (message) => console.warn(`Embeddings: ${message}`),
  });
  const inBackground = options.backgroundEmbeddings ?? options.host !== 'cli';
  const background = new BackgroundEmbeddings({
    service,
    events,
    // Another process writing this vault's index embeds it: one is enough.
    enabled: () => inBackground && settings.get().enabled && index.writes(),
  });
  const { handlers, search, related } = embeddingHandlers({ service, settings, background, keys, index });
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
      stopHearing();
    },
  };
}

export type EmbeddingServices = ReturnType<typeof embeddingServices>;
