import { describe, expect, it } from 'vitest';
import { PassQueue } from '../../../src/main/index/pass-queue';

/** A pass that ends when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('PassQueue', () => {
  it('runs passes one at a time in the order queued, a failed one not stopping the next', async () => {
    const queue = new PassQueue();
    const order: string[] = [];
    const first = gate();
    const one = queue.run(async () => {
      order.push('one starts');
      await first.opened;
      order.push('one ends');
      throw new Error('one failed');
    });
    const two = queue.run(async () => {
      order.push('two');
      return 2;
    });
    await new Promise((resolve) => setImmediate(resolve));
    // The second waits for the first, still running.
    expect(order).toEqual(['one starts']);
    expect(queue.running).toBe(true);
    first.open();
    await expect(one).rejects.toThrow('one failed');
    await expect(two).resolves.toBe(2);
    expect(order).toEqual(['one starts', 'one ends', 'two']);
    expect(queue.running).toBe(false);
  });

  it('runs what is queued with after() once the passes before it end, and settles after it', async () => {
    const queue = new PassQueue();
    const events: string[] = [];
    const pass = gate();
    void queue.run(async () => {
      await pass.opened;
      events.push('pass');
    });
    queue.after(() => events.push('closed'));
    const settled = queue.settled().then(() => events.push('settled'));
    pass.open();
    await settled;
    expect(events).toEqual(['pass', 'closed', 'settled']);
    // Not a pass: nothing counts as running while it waits or after it.
    expect(queue.running).toBe(false);
  });
});
