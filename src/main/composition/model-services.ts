import type { AppEvents } from '../app-events';
import { ApiKeys } from '../llm/api-keys';
import { ModelService } from '../llm/model-service';
import { ModelSettingsStore } from '../llm/model-settings';
import { PriceBook } from '../llm/price-book';
import { ServerPrices } from '../llm/server-prices';
import { UserPrices } from '../llm/user-prices';
import { SettingsTable } from '../storage/settings-table';
import { BackgroundSummaries } from '../summaries/background-summaries';
import { SummaryQueue } from '../summaries/summary-queue';
import { SummaryStore } from '../summaries/summary-store';
import type { AppOptions } from './app-options';
import type { VaultServices } from './vault-services';

/** The chat model's settings and keys, the model service, and the summaries it writes. */
export function modelServices(
  options: AppOptions,
  { db, index, readNote }: VaultServices,
  events: AppEvents,
) {
  const settings = new ModelSettingsStore(db, options.model);
  const keys = new ApiKeys(db, {
    box: options.secretBox ?? null,
    env: options.env,
    // A variable named on the command line is one the user chose to hand over, whatever its name.
    launchVariables: [options.model?.apiKeyEnv, options.embeddings?.apiKeyEnv].filter(
      (name): name is string => typeof name === 'string',
    ),
  });
  // A variable named on the command line goes to the server in force at launch, and only there.
  if (options.model?.apiKeyEnv) keys.pairAtLaunch(settings.get());
  const models = new ModelService(
    settings,
    keys,
    fetch,
    // The background summaries ask this service for their model, and start over when its settings change:
    // it tells them on the bus (below) rather than holding them.
    () => events.emit('models:changed', null),
    options.backgroundSummaries ?? options.host !== 'cli',
    {
      named: new SettingsTable(db),
      onWindowChanged: (window) => events.emit('models:windowChanged', window),
    },
  );
  const prices = new PriceBook(
    settings,
    keys,
    new UserPrices(new SettingsTable(db)),
    new ServerPrices(fetch),
  );
  // The queue hears a note used without a summary and tells the runner of summaries on use, which is made
  // from the queue: the queue is given a function that reaches the runner once it exists.
  let noteUsed = (_path: string): void => {};
  const summaries = new SummaryQueue({
    store: new SummaryStore(db),
    model: () => models.summaryModel(),
    modelKey: () => models.summaryModelKey(),
    notes: (paths) => index.noteHashes(paths),
    readNote,
    onProgress: (progress) => events.emit('summaries:progress', progress),
    onMissing: (path) => noteUsed(path),
  });
  const background = new BackgroundSummaries({
    queue: summaries,
    // Another process writing this vault's index summarizes it: one is enough.
    enabled: () => models.backgroundSummaries() && index.writes(),
  });
  noteUsed = (path) => background.noteUsed(path);
  const stopRestarting = events.on('models:changed', () => background.restart());
  return {
    settings,
    keys,
    models,
    prices,
    summaries,
    start: () => background.start(),
    stop() {
      stopRestarting();
      background.stop();
    },
  };
}

export type ModelServices = ReturnType<typeof modelServices>;
