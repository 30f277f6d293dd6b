import { randomUUID } from 'node:crypto';
import type { ProposedChange } from '../../shared/chat-domain';
import { AppError } from '../app-error';
import { exportName } from '../export/chat-export';
import type { AttachmentStore } from '../items/attachment-store';
import { NoteExistsError, type CommittedWrite, type PreparedWrite } from '../vault/note-writes';
import { webPageNote } from './web-page-note';

export const webNotesFolder = 'Web pages';

export interface WebSaverOptions {
  attachments: Pick<AttachmentStore, 'ofSession'>;
  prepareCreate(path: string, content: string): Promise<PreparedWrite>;
  /** Keeps what the note wrote, so that it can be undone as a chat's other writes are. */
  recorded(sessionId: string, write: CommittedWrite): void;
  now?: () => Date;
}

/** A note proposed for a web page, waiting for the user's approval. */
export interface WebSaveProposal {
  token: string;
  change: Extract<ProposedChange, { kind: 'create' }>;
}

/**
 * "Save to vault" for a web page of a chat: the note is prepared (checked and confined like a write
 * tool's), shown to the user whole, and written only when they approve it.
 */
export class WebSaver {
  private readonly waiting = new Map<string, { sessionId: string; write: PreparedWrite }>();

  constructor(private readonly options: WebSaverOptions) {}

  async propose(sessionId: string, url: string): Promise<WebSaveProposal> {
    const page = this.options.attachments.ofSession(sessionId).findLast((file) => file.url === url);
    if (!page) throw new AppError('not-found', `This chat has no web page ${url}.`);
    const content = webPageNote(
      { title: page.name, url, text: page.text },
      (this.options.now ?? (() => new Date()))(),
    );
    const name = exportName(page.name);
    for (let copy = 1; copy <= 100; copy++) {
      const path = `${webNotesFolder}/${name}${copy === 1 ? '' : ` ${copy}`}.md`;
      try {
        const write = await this.options.prepareCreate(path, content);
        const token = randomUUID();
        // One proposal waits at a time: an older one was left unanswered.
        this.waiting.clear();
        this.waiting.set(token, { sessionId, write });
        return { token, change: write.change as WebSaveProposal['change'] };
      } catch (error) {
        if (!(error instanceof NoteExistsError)) throw error;
      }
    }
    throw new AppError('invalid-input', `"${webNotesFolder}" already holds 100 notes named "${name}".`);
  }

  /** Writes the proposed note when approved (and says where), or lets it go; null when nothing was written. */
  async decide(token: string, approved: boolean): Promise<{ path: string } | null> {
    const entry = this.waiting.get(token);
    if (!entry)
      throw new AppError('not-found', 'This note is not waiting any more: choose Save to vault again.');
    this.waiting.delete(token);
    if (!approved) return null;
    const written = await entry.write.commit();
    this.options.recorded(entry.sessionId, written);
    return { path: written.path };
  }
}
