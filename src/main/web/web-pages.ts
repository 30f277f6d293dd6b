import type { PreparedAttachment } from '../../shared/context-items-domain';
import { AppError } from '../app-error';
import type { AttachmentReader } from '../attachments/attachment-reader';
import type { AttachmentIntake } from '../items/attachment-intake';
import type { HostResolver } from './guarded-lookup';
import { importOnFirstUse } from '../lazy-import';
import type { FetchLimits } from './page-fetch';
import type { WebReadResult } from './web-reader';
import type { WebSettingsStore } from './web-settings';

/**
 * The fetch and its readers load with the first page: importing `node:http` reads every export of it,
 * which loads Node's bundled undici and `node:http2` too (about 30 ms of a `kasten search`).
 */
const webReader = importOnFirstUse('the web page fetcher', () => import('./web-reader'));

export interface WebPagesOptions {
  settings: WebSettingsStore;
  /** Reads a page that is a PDF. */
  pdf: Pick<AttachmentReader, 'read'>;
  intake: Pick<AttachmentIntake, 'admit'>;
  /** Tests resolve names themselves (a name that answers differently the second time). */
  resolve?: HostResolver;
  limits?: Partial<FetchLimits>;
}

/** Web pages for chats: fetched in the main process under the address guard, read, counted and kept. */
export class WebPages {
  constructor(private readonly options: WebPagesOptions) {}

  /** A page's article as Markdown (or its PDF's text), or why it cannot be read, in a sentence. */
  async read(url: string, signal?: AbortSignal): Promise<WebReadResult> {
    const { settings, pdf, resolve, limits } = this.options;
    const fetch = { ...limits, allowPrivate: settings.get().allowPrivateAddresses, resolve, signal };
    const { readWebPage } = await webReader();
    return readWebPage(url, fetch, { pdf });
  }

  /** A page read and counted for the message being typed, as a file dropped on the composer is. */
  async prepare(url: string, signal?: AbortSignal): Promise<PreparedAttachment> {
    const page = await this.read(url, signal);
    if (!page.ok) throw new AppError('unsupported', page.message);
    return this.options.intake.admit(page);
  }
}
