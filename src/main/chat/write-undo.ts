import type { UndoOutcome } from '../../shared/chat-domain';
import { AppError } from '../app-error';
import type { AppEvents } from '../app-events';
import type { ChatStore } from './chat-store';
import type { WriteRecord, WriteRecords } from './write-records';

export interface WriteUndoOptions {
  records: WriteRecords;
  store: Pick<ChatStore, 'message'>;
  events: AppEvents;
  vault: {
    /** The open vault's folder; null when none is open. */
    root(): string | null;
    restoreNote(realPath: string, previous: Buffer | null, writtenHash: string): Promise<void>;
  };
  /** Told that an export was undone, so that the chat's next export does not build on the note. */
  exportUndone(sessionId: string, path: string, previous: Buffer | null): void;
}

/**
 * Takes back what Kasten wrote for a chat: each note gets the bytes it held before, or is removed when
 * Kasten created it, only while it holds exactly what Kasten wrote — never over a change made since.
 * Every outcome says in words what happened.
 */
export class WriteUndo {
  constructor(private readonly options: WriteUndoOptions) {}

  /** The change of one tool call (`call`), or every change of the chat not undone yet, newest first. */
  async undo(sessionId: string, call?: { messageId: number; callId: string }): Promise<UndoOutcome[]> {
    const { records } = this.options;
    if (call === undefined) {
      const outcomes: UndoOutcome[] = [];
      for (const record of records.pending(sessionId)) outcomes.push(await this.undoOne(record));
      return outcomes;
    }
    const record = records.ofCall(sessionId, call.messageId, call.callId);
    if (!record) {
      throw new AppError(
        'not-found',
        'Kasten kept no copy of what this note held before the change (it was not written, or was written before Kasten kept them), so it cannot be undone.',
      );
    }
    return [await this.undoOne(record)];
  }

  /** The chat's latest export to `path` not undone yet (the export notice's Undo). */
  async undoExport(sessionId: string, path: string): Promise<UndoOutcome> {
    const record = this.options.records
      .pending(sessionId)
      .find((entry) => entry.kind === 'export' && entry.path === path);
    if (!record) {
      throw new AppError('not-found', `There is no export of this chat to "${path}" left to undo.`);
    }
    return this.undoOne(record);
  }

  private async undoOne(record: WriteRecord): Promise<UndoOutcome> {
    const outcome = (undone: boolean, message: string): UndoOutcome => ({
      kind: record.kind,
      path: record.path,
      undone,
      message,
    });
    if (record.undoneAt !== null)
      return outcome(false, `This change to "${record.path}" was already undone.`);
    if (record.messageId !== null && this.options.store.message(record.messageId).status === 'streaming') {
      return outcome(
        false,
        'The answer that made this change is still being written; undo it once it is done.',
      );
    }
    if (this.options.vault.root() !== record.vault) {
      return outcome(false, `The change was made in the vault ${record.vault}; open that vault to undo it.`);
    }
    const later = this.options.records.laterWrite(record);
    if (later !== null) {
      const where = later === record.sessionId ? 'in this chat' : 'in another chat';
      return outcome(
        false,
        `Not undone: Kasten changed "${record.path}" again later ${where}; undo that change first.`,
      );
    }
    try {
      await this.options.vault.restoreNote(record.path, record.previous, record.writtenHash);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const why =
        error.code === 'not-found'
          ? `"${record.path}" was deleted or moved since Kasten wrote it, so there was nothing to undo.`
          : error.message;
      return outcome(false, `Not undone: ${why}`);
    }
    const message =
      record.previous === null
        ? `Undone: "${record.path}" was removed; it did not exist before.`
        : `Undone: "${record.path}" holds again, byte for byte, what it held before.`;
    this.options.records.undone(
      record,
      `Later the user undid this change: ${message.slice('Undone: '.length)}`,
    );
    if (record.kind === 'export') this.options.exportUndone(record.sessionId, record.path, record.previous);
    if (record.messageId !== null) {
      this.options.events.emit('chat:message', this.options.store.message(record.messageId));
    }
    return outcome(true, message);
  }
}
