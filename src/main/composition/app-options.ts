import type { ModelSettings } from '../../shared/chat-domain';
import type { ContextStrategy } from '../../shared/context-domain';
import type { HostKind } from '../../shared/domain';
import type { EmbeddingSettings } from '../../shared/embedding-domain';
import type { WriteMode } from '../chat/write-permissions';
import type { SecretBox } from '../llm/api-keys';
import type { FolderPicker } from '../vault/vault-service';
import type { WebPagesOptions } from '../web/web-pages';

export interface AppOptions {
  host: HostKind;
  version: string;
  dataDir: string;
  /** Folder holding `sample-vault/`. */
  resourcesDir: string;
  /** Vault to open at start; otherwise the most recent one, otherwise the sample vault. */
  vault?: string;
  pickFolder?: FolderPicker;
  /** Watch the open vault (default true). */
  watch?: boolean;
  /** start() resolves once the open vault's index is up to date, as a one-shot CLI command needs. */
  waitForIndex?: boolean;
  /** Called once a pass that filled an empty index is over (the long-running hosts collect its garbage). */
  afterColdIndex?: () => void;
  /** The built parser worker (`index-worker.js`); without one notes are parsed on the main thread. */
  indexWorker?: string;
  /** Model settings for this run that win over the stored ones (CLI flags). */
  model?: Partial<ModelSettings>;
  /** Embedding settings for this run that win over the stored ones (CLI flags). */
  embeddings?: Partial<EmbeddingSettings>;
  /** Embed the vault in the background when embeddings are on (default: yes, except one-shot CLI runs). */
  backgroundEmbeddings?: boolean;
  /** Where API keys are read from (environment variables named in the model settings). */
  env?: NodeJS.ProcessEnv;
  /** The host's encryption for stored API keys (the desktop app's keychain); without one keys come from env. */
  secretBox?: SecretBox | null;
  /** Summarize notes as they are used when the settings say so (default: yes, except one-shot CLI runs). */
  backgroundSummaries?: boolean;
  /** A strategy for every session of this run (`kasten ask --strategy`), instead of each session's own. */
  contextStrategy?: ContextStrategy;
  /** How long one summarization request of a compaction may take (tests shorten it). */
  compactionTimeoutMs?: number;
  /**
   * Who decides on write tool calls: the user in the chat (default), nobody may write (CLI), or each is
   * written at once (`kasten ask --allow-writes`).
   */
  writes?: WriteMode;
  /** Whether the chat model sees images, for this run (`kasten ask --vision on|off`); otherwise found out. */
  vision?: boolean;
  /** Pages on loopback and private addresses may be fetched in this run (`kasten ask --allow-private-urls`). */
  allowPrivateUrls?: boolean;
  /** How web pages are fetched: tests resolve names themselves and set lower limits. */
  web?: Pick<WebPagesOptions, 'resolve' | 'limits'>;
  /** The clock of the date and time the model is told (tests replay chats over days). */
  now?: () => Date;
}
