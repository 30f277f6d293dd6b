import { isAbsolute, win32 } from 'node:path';
import type { ChatSession } from '../../shared/chat-domain';
import type { ChatExport } from '../../shared/chat-domain';
import { AppError } from '../app-error';
import type { SqliteDatabase } from '../storage/database';
import { SettingsTable } from '../storage/settings-table';
import { isWindowsDevice } from '../vault/new-note-path';
import { NoteExistsError, noteHash, type CommittedWrite, type PreparedWrite } from '../vault/note-writes';
import { chatMarkdown, exportTitle, withoutCutWord } from './chat-markdown';

export interface ChatExportOptions {
  db: SqliteDatabase;
  session: (id: string) => ChatSession;
  vault: {
    /** The open vault's folder: an export is remembered per vault. */
    root(): string;
    prepareCreate(path: string, content: string): Promise<PreparedWrite>;
    replaceNote(path: string, content: string, expectedHash: string): Promise<CommittedWrite>;
  };
  /** Keeps what an export wrote over, so that it can be undone. */
  recorded?: (sessionId: string, write: CommittedWrite) => void;
  now?: () => Date;
}

export interface ChatExportRequest {
  sessionId: string;
  /** The vault folder the note goes in (default `Kasten chats`). */
  folder?: string;
  /** Write over the note this chat was last exported to (if no one edited it) rather than a new one. */
  update?: boolean;
  /** This note path in the vault instead of one named after the chat (refused if a note is there). */
  path?: string;
}

export const defaultExportFolder = 'Kasten chats';

/** Where a chat was last exported, and the hash of what was written, so an update never loses an edit. */
interface ExportRecord {
  path: string;
  hash: string;
}

/**
 * Characters a note name cannot hold on some system, would make a link to it ambiguous, or are
 * invisible (format characters: direction marks, zero-width ones).
 */
const unsafeName = /[\\/:*?"<>|#^[\]\p{Cc}\p{Cf}]+/gu;
const longestName = 80;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * A note name from a chat's title: safe on every system, at most 80 characters, cut between words
 * (never inside a character an emoji or an accent is made of); a device name such as CON is prefixed.
 */
export function exportName(title: string): string {
  const cleaned = title.replace(unsafeName, ' ').replace(/\s+/g, ' ').trim().replace(/^\.+/, '');
  const name = shortened(cleaned).replace(/[. ]+$/, '');
  if (name === '') return 'Chat';
  return isWindowsDevice(name) ? `Chat ${name}` : name;
}

/** At most `longestName` UTF-16 units, ending at the last whole word that fits (and without a cut word's "…"). */
function shortened(text: string): string {
  const cut = withoutCutWord(text);
  if (cut.length <= longestName && cut === text) return text;
  let kept = '';
  for (const { segment } of graphemes.segment(cut)) {
    if (kept.length + segment.length > longestName) break;
    kept += segment;
  }
  if (kept === cut) return kept;
  const lastSpace = kept.lastIndexOf(' ');
  return lastSpace > longestName / 2 ? kept.slice(0, lastSpace) : kept;
}

/** The vault folder an export goes in, relative to the vault: an absolute path is refused, not re-rooted. */
function folderOf(folder: string | undefined): string {
  const chosen = folder ?? defaultExportFolder;
  if (isAbsolute(chosen) || win32.isAbsolute(chosen)) {
    throw new AppError(
      'invalid-input',
      `"${chosen}" is an absolute path; the export folder must be inside the vault, given relative to it (such as "${defaultExportFolder}").`,
    );
  }
  return chosen.replaceAll('\\', '/').replace(/\/+$/g, '');
}

/**
 * Exports chats to Markdown notes in the vault: a new note each time (`Title.md`, then `Title 2.md`, …),
 * or, when asked, over the note the chat was last exported to, as long as nobody edited it since.
 */
export class ChatExporter {
  private readonly records: SettingsTable;

  constructor(private readonly options: ChatExportOptions) {
    this.records = new SettingsTable(options.db);
  }

  async export({ sessionId, folder, update, path: chosen }: ChatExportRequest): Promise<ChatExport> {
    const session = this.options.session(sessionId);
    const content = chatMarkdown(session, (this.options.now ?? (() => new Date()))());
    const key = `export:${this.options.vault.root()}:${sessionId}`;
    const last = this.record(key);
    if (update && last) {
      const written = await this.options.vault.replaceNote(last.path, content, last.hash);
      this.options.recorded?.(sessionId, written);
      this.records.put(key, JSON.stringify({ path: last.path, hash: noteHash(content) }));
      return { path: last.path, updated: true };
    }
    const written = chosen
      ? await this.create(chosen.endsWith('.md') ? chosen : `${chosen}.md`, content)
      : await this.createFree(folderOf(folder), exportName(exportTitle(session.title)), content);
    this.options.recorded?.(sessionId, written);
    this.records.put(key, JSON.stringify({ path: written.path, hash: noteHash(content) }));
    return { path: written.path, updated: false };
  }

  /**
   * An export of the chat to `path` was undone: the note holds `previous` again (an earlier export),
   * or is gone. The next update builds on that, or exports anew.
   */
  undone(sessionId: string, path: string, previous: Buffer | null): void {
    const key = `export:${this.options.vault.root()}:${sessionId}`;
    if (this.record(key)?.path !== path) return;
    if (previous === null) this.records.delete(key);
    else this.records.put(key, JSON.stringify({ path, hash: noteHash(previous) }));
  }

  private async create(path: string, content: string): Promise<CommittedWrite> {
    const write = await this.options.vault.prepareCreate(path, content);
    return write.commit();
  }

  /** The note `name.md` in `folder`, or `name 2.md`, … the first that does not exist. */
  private async createFree(folder: string, name: string, content: string): Promise<CommittedWrite> {
    for (let copy = 1; copy <= 100; copy++) {
      const file = `${name}${copy === 1 ? '' : ` ${copy}`}.md`;
      try {
        return await this.create(folder ? `${folder}/${file}` : file, content);
      } catch (error) {
        if (!(error instanceof NoteExistsError)) throw error;
      }
    }
    throw new AppError('invalid-input', `"${folder}" already holds 100 exports named "${name}".`);
  }

  private record(key: string): ExportRecord | null {
    const stored = this.records.get(key);
    return stored === null ? null : (JSON.parse(stored) as ExportRecord);
  }
}
