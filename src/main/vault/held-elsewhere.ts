import { readdirSync, readlinkSync } from 'node:fs';

/**
 * Whether a process other than this one holds open the file that `fd` holds: Linux lists each
 * process's descriptors in /proc (the user's own processes, an editor among them, are readable).
 * Null where that cannot be known (other systems, /proc not mounted).
 */
export function heldElsewhere(fd: number): boolean | null {
  if (process.platform !== 'linux') return null;
  let target: string;
  try {
    target = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    let descriptors: string[];
    try {
      descriptors = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // Another user's process, or one that ended meanwhile.
    }
    for (const descriptor of descriptors) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${descriptor}`) === target) return true;
      } catch {
        // Closed meanwhile.
      }
    }
  }
  return false;
}
