import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/** The process writing a streaming answer, as recorded on the message. */
export interface AnswerOwner {
  pid: number;
  host: string;
  /** Tells this run of the process from an earlier one that had the same pid (a restarted container). */
  run: string;
}

/** A streaming answer as another process sees it: who writes it, and until when its owner vouched for it. */
export interface StreamingAnswer {
  owner: AnswerOwner | null;
  /** Milliseconds since the epoch. */
  leaseUntil: number | null;
}

/** How long a lease holds, and how often the writing process renews it. */
export const answerLeaseMs = 30_000;
export const answerLeaseRenewMs = 5_000;

const thisRun = randomUUID();

/** This process as the owner of the answers it streams. */
export function currentOwner(): AnswerOwner {
  return { pid: process.pid, host: hostname(), run: thisRun };
}

/**
 * Whether nobody is writing the answer any more: its lease ran out, or its owner ran on this machine and
 * that process is gone. An owner on another machine is trusted until its lease runs out.
 */
export function answerAbandoned(answer: StreamingAnswer, now: number): boolean {
  const { owner, leaseUntil } = answer;
  if (owner === null || leaseUntil === null || leaseUntil < now) return true;
  const self = currentOwner();
  if (owner.host !== self.host) return false;
  if (owner.pid === self.pid) return owner.run !== self.run;
  return !processAlive(owner.pid);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
