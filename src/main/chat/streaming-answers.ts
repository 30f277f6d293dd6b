import type { SqliteDatabase } from '../storage/database';
import type { AnswerOwner, StreamingAnswer } from './answer-owner';

const interruptedWrite = 'Kasten stopped while the change waited for approval; nothing was written.';

/** A streaming answer's row: the owner's columns are all set, or all null (written before owners were). */
type StreamingRow = { id: number; leaseUntil: number | null } & (
  AnswerOwner | { pid: null; host: null; run: null }
);

/**
 * The answers marked streaming in the app database, which several Kasten processes may share: the
 * process writing one renews its lease, and any process marks those nobody writes any more.
 */
export class StreamingAnswers {
  private readonly renew;
  private readonly streaming;
  private readonly mark;
  private readonly markWaiting;

  constructor(private readonly db: SqliteDatabase) {
    this.renew = db.prepare<[number, number]>(
      "UPDATE messages SET lease_until = ? WHERE id = ? AND status = 'streaming'",
    );
    this.streaming = db.prepare<[], StreamingRow>(
      `SELECT id, owner_pid AS pid, owner_host AS host, owner_run AS run, lease_until AS leaseUntil
         FROM messages WHERE status = 'streaming'`,
    );
    this.mark = db.prepare<[number]>(
      `UPDATE messages SET status = 'interrupted',
           error = 'Kasten stopped while this answer was being written; the text saved until then is kept.'
         WHERE id = ? AND status = 'streaming'`,
    );
    // A change that waited for approval when its answer's writer stopped was never written.
    this.markWaiting = db.prepare<[string, number]>(
      `UPDATE message_parts
         SET part = json_set(part, '$.approval.state', 'interrupted', '$.ok', json('false'), '$.output', ?)
         WHERE message_id = ? AND json_extract(part, '$.approval.state') = 'pending'`,
    );
  }

  /** Extends the lease of a streaming answer: its writer is still at work. */
  renewLease(id: number, leaseUntil: number): void {
    this.renew.run(leaseUntil, id);
  }

  /**
   * Streaming answers nobody writes any more (the process writing them stopped) are marked interrupted;
   * their saved text is kept, and a change still waiting for approval is marked never written. Answers
   * another process is still writing are left alone.
   */
  markInterrupted(abandoned: (answer: StreamingAnswer) => boolean): number {
    const stale = this.streaming
      .all()
      .filter(({ id: _id, leaseUntil, ...owner }) =>
        abandoned({ owner: owner.pid === null ? null : owner, leaseUntil }),
      );
    if (stale.length === 0) return 0;
    return this.db.transaction(() =>
      stale.reduce((marked, { id }) => {
        const changes = this.mark.run(id).changes;
        if (changes > 0) this.markWaiting.run(interruptedWrite, id);
        return marked + changes;
      }, 0),
    )();
  }
}
