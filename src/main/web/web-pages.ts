import type { PreparedAttachment } from '../../shared/context-items-domain';
import { AppError } from '../app-error';
import type { AttachmentReader } from '../attachments/attachment-reader';
import type { AttachmentIntake } from '../items/attachment-intake';
import type { HostResolver } from './guarded-lookup';
import type { FetchLimits } from './page-fetch';
import { readWebPage, type WebReadResult } from './web-reader';
import type { WebSettingsStore } from './web-settings';

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
  read(url: string, signal?: AbortSignal): Promise<WebReadResult> {
    const { settings, pdf, resolve, limits } = this.options;
    const fetch = { ...limits, allowPrivate: settings.get().allowPrivateAddresses, resolve, signal };
    return readWebPage(url, fetch, { pdf });
  }

  /** A page read and counted for the message being typed, as a file dropped on the composer is. */
  async prepare(url: string, signal?: AbortSignal): Promise<PreparedAttachment> {
    const page = await this.read(url, signal);
    if (!page.ok) throw new AppError('unsupported', page.message);
    return this.options.intake.admit(page);
  }
}
