import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** Set in a stdio server's environment: its children inherit it, and it finds them once they left its group. */
export const runMarkName = 'KASTEN_MCP_RUN';

/** Groups not yet known to be gone, for the last-moment kill when the host exits. */
const live = new Set<ServerProcesses>();
let exitHooked = false;

function signalled(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Everything a stdio server started: its process group (it runs in one of its own) and, on Linux, every
 * process whose environment carries its run mark, which finds a child that moved to a session of its own
 * (setsid, a daemon's double fork). A child that also clears its environment is beyond reach.
 */
export class ServerProcesses {
  readonly mark = randomUUID();
  private pid: number | null = null;

  /** The variables that tag the server's processes. */
  environment(): Record<string, string> {
    return { [runMarkName]: this.mark };
  }

  /** The server started as the leader of its own group; from now on the host's exit ends it. */
  started(pid: number): void {
    this.pid = pid;
    live.add(this);
    if (exitHooked) return;
    exitHooked = true;
    // `exit` handlers must be synchronous: SIGKILL, no grace, to whatever is still there.
    process.on('exit', () => {
      for (const processes of live) processes.signal('SIGKILL');
    });
  }

  /** Sends `signal` to the group and to every marked process; whether any was there to receive it. */
  signal(signal: NodeJS.Signals | 0): boolean {
    let any = this.pid !== null && signalled(-this.pid, signal);
    for (const pid of markedProcesses(this.mark)) any = signalled(pid, signal) || any;
    if (!any) live.delete(this);
    return any;
  }
}

/** The processes whose environment holds `KASTEN_MCP_RUN=<mark>`; none where /proc is not there. */
function markedProcesses(mark: string): number[] {
  if (process.platform !== 'linux') return [];
  const needle = Buffer.from(`\0${runMarkName}=${mark}\0`);
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      // A leading NUL lets the first variable match like the others.
      const environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${pid}/environ`)]);
      if (environ.includes(needle)) found.push(pid);
    } catch {
      // Gone, or another user's: not one of ours.
    }
  }
  return found;
}
