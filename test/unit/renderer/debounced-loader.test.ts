import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DebouncedLoader } from '../../../src/renderer/src/features/context/debounced-loader';

/** A load that stays in flight until the test ends it. */
function controlledLoad() {
  const pending: (() => void)[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  let calls = 0;
  const load = () => {
    calls++;
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    return new Promise<void>((resolve) =>
      pending.push(() => {
        inFlight--;
        resolve();
      }),
    );
  };
  return {
    load,
    finish: async () => {
      pending.shift()?.();
      await vi.advanceTimersByTimeAsync(0);
    },
    get calls() {
      return calls;
    },
    get mostInFlight() {
      return mostInFlight;
    },
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('reloading the context meter', () => {
  it('loads once, 250 ms after the last keystroke of a burst', async () => {
    const loads = controlledLoad();
    const loader = new DebouncedLoader(loads.load);
    for (let key = 0; key < 10; key++) {
      loader.schedule(250);
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(loads.calls).toBe(0);
    await vi.advanceTimersByTimeAsync(150);
    expect(loads.calls).toBe(1);
  });

  it('never has two loads in flight, and loads once more after one that a change made stale', async () => {
    const loads = controlledLoad();
    const loader = new DebouncedLoader(loads.load);
    loader.schedule(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(loads.calls).toBe(1);

    loader.schedule(100);
    await vi.advanceTimersByTimeAsync(100);
    loader.schedule(100);
    await vi.advanceTimersByTimeAsync(100);
    expect(loads.calls).toBe(1);

    await loads.finish();
    expect(loads.calls).toBe(2);
    await loads.finish();
    expect(loads.calls).toBe(2);
    expect(loads.mostInFlight).toBe(1);
  });

  it('keeps loading after a load fails', async () => {
    let calls = 0;
    const loader = new DebouncedLoader(async () => {
      calls++;
      throw new Error('no vault');
    });
    loader.schedule(0);
    await vi.advanceTimersByTimeAsync(0);
    loader.schedule(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(2);
  });
});
