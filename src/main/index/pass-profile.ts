import type { IndexProfile } from '../../shared/index-domain';

/** Adds up where an index pass's time goes (see IndexProfile); `other` is filled in by end(). */
export class PassProfile {
  readonly ms: IndexProfile = {
    read: 0,
    parse: 0,
    parseOnMain: 0,
    notes: 0,
    links: 0,
    fts: 0,
    commits: 0,
    settle: 0,
    indexes: 0,
    other: 0,
  };

  add(phase: keyof IndexProfile, ms: number): void {
    this.ms[phase] += ms;
  }

  /** Runs `work`, adding its time to `phase`. */
  time<T>(phase: keyof IndexProfile, work: () => T): T {
    const started = performance.now();
    try {
      return work();
    } finally {
      this.ms[phase] += performance.now() - started;
    }
  }

  /** The profile of a pass that took `totalMs`, in whole milliseconds. */
  end(totalMs: number): IndexProfile {
    const { read: _read, parse: _parse, other: _other, ...onMain } = this.ms;
    const mainMs = Object.values(onMain).reduce((sum, ms) => sum + ms, 0);
    const profile: IndexProfile = { ...this.ms, other: Math.max(0, totalMs - mainMs) };
    for (const phase of Object.keys(profile) as (keyof IndexProfile)[])
      profile[phase] = Math.round(profile[phase]);
    return profile;
  }
}
