import { AppError } from '../app-error';

/** The user's decisions on proposed changes that answers are waiting for, by session and tool call. */
export class WriteDecisions {
  private readonly waiting = new Map<string, (decision: boolean | 'stopped') => void>();

  /** Resolves with the user's decision (true: approved), or `stopped` once `signal` aborts (Stop). */
  wait(sessionId: string, callId: string, signal: AbortSignal): Promise<boolean | 'stopped'> {
    const key = keyOf(sessionId, callId);
    return new Promise((resolve) => {
      if (signal.aborted) return resolve('stopped');
      const settle = (decision: boolean | 'stopped') => {
        this.waiting.delete(key);
        signal.removeEventListener('abort', stopped);
        resolve(decision);
      };
      const stopped = () => settle('stopped');
      signal.addEventListener('abort', stopped, { once: true });
      this.waiting.set(key, settle);
    });
  }

  /** The user approved or rejected the change of `callId`; an error if nothing waits for that. */
  decide(sessionId: string, callId: string, approved: boolean): void {
    const settle = this.waiting.get(keyOf(sessionId, callId));
    if (!settle) {
      throw new AppError('not-found', 'This change is not waiting for approval any more.');
    }
    settle(approved);
  }
}

function keyOf(sessionId: string, callId: string): string {
  return `${sessionId}\u0000${callId}`;
}
