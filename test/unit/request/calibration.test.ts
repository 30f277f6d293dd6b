import { describe, expect, it } from 'vitest';
import {
  MemoryCalibrationStore,
  observeUsage,
  type Calibration,
} from '../../../src/main/request/count/calibration';
import { anthropicFactor } from '../../../src/main/request/count/token-encodings';
import { baseInput, gpt4o, newEngine } from './context-fixtures';

const fresh: Calibration = { ratio: 1, samples: 0, answers: 0 };

describe('calibration from reported prompt tokens', () => {
  it('takes the first report as the ratio, then averages, then follows with a smoothed weight', () => {
    let calibration = observeUsage(fresh, 1_000, 1_200).calibration;
    expect(calibration).toEqual({ ratio: 1.2, samples: 1, answers: 0 });
    calibration = observeUsage(calibration, 1_000, 1_100).calibration;
    expect(calibration.ratio).toBeCloseTo(1.15);
    expect(calibration.samples).toBe(2);
    // After many samples a new one still moves the ratio 30% of the way: a changed server is followed.
    const settled = { ratio: 1.1, samples: 50, answers: 20 };
    expect(observeUsage(settled, 1_000, 1_300).calibration.ratio).toBeCloseTo(1.1 + 0.3 * 0.2);
  });

  it('ignores absurd reports: nothing, zero, or fifty times the estimate', () => {
    const current = { ratio: 1.1, samples: 3, answers: 1 };
    expect(observeUsage(current, 1_000, null)).toMatchObject({ verdict: 'no-report', calibration: current });
    expect(observeUsage(current, 1_000, 0)).toMatchObject({ verdict: 'absurd', calibration: current });
    expect(observeUsage(current, 1_000, 50_000)).toMatchObject({ verdict: 'absurd', calibration: current });
  });

  it('does not learn from a prompt the server silently shortened, and says so', () => {
    const current = { ratio: 1.05, samples: 4, answers: 2 };
    const observation = observeUsage(current, 10_000, 4_096);
    expect(observation.verdict).toBe('truncated');
    expect(observation.calibration).toBe(current);
  });

  it('learns from the prompt size a context-length error states, however far below it is', () => {
    expect(observeUsage({ ratio: 1.25, samples: 0, answers: 0 }, 10_000, 8_000, true).verdict).toBe(
      'calibrated',
    );
  });

  it('ignores tiny requests, whose ratio is mostly the chat template', () => {
    expect(observeUsage(fresh, 20, 40).verdict).toBe('too-small');
  });

  it('keeps the ratio within bounds', () => {
    let calibration = fresh;
    for (let i = 0; i < 20; i++) calibration = observeUsage(calibration, 1_000, 3_900).calibration;
    expect(calibration.ratio).toBeLessThanOrEqual(3);
  });
});

describe('the engine’s calibration', () => {
  it('starts Claude at the documented factor and others at 1', () => {
    const engine = newEngine();
    expect(engine.calibration({ key: 'a', model: 'claude-opus-4-1' }).ratio).toBe(anthropicFactor);
    expect(engine.calibration(gpt4o)).toEqual({ ratio: 1, samples: 0, answers: 0 });
  });

  it('persists each accepted sample with its count through the store', () => {
    const store = new MemoryCalibrationStore();
    const engine = newEngine({}, store);
    engine.recordUsage(gpt4o, 2_000, 2_400, true);
    expect(store.get(gpt4o.key)).toEqual({ ratio: 1.2, samples: 1, answers: 1 });
    engine.recordUsage(gpt4o, 2_000, 0, true);
    expect(store.get(gpt4o.key)).toEqual({ ratio: 1.2, samples: 1, answers: 1 });
    expect(newEngine({}, store).calibration(gpt4o).ratio).toBe(1.2);
  });

  it('counts answers, not requests: the later requests of one answer add samples only', () => {
    const engine = newEngine();
    engine.recordUsage(gpt4o, 2_000, 2_400, true);
    engine.recordUsage(gpt4o, 2_500, 3_000, false);
    engine.recordUsage(gpt4o, 3_000, 3_600, false);
    expect(engine.calibration(gpt4o)).toMatchObject({ samples: 3, answers: 1 });
    engine.recordUsage(gpt4o, 2_000, 2_400, true);
    expect(engine.calibration(gpt4o)).toMatchObject({ samples: 4, answers: 2 });
  });

  it('takes a calibration stored before answers were counted apart as that many answers', () => {
    const store = new MemoryCalibrationStore();
    store.put(gpt4o.key, { ratio: 1.1, samples: 3 } as Calibration);
    expect(newEngine({}, store).calibration(gpt4o)).toEqual({ ratio: 1.1, samples: 3, answers: 3 });
  });

  it('uses the calibrated count for the estimate and the budget alike', () => {
    const engine = newEngine();
    const before = engine.assemble(baseInput());
    engine.recordUsage(gpt4o, 2_000, 3_000, true);
    const after = engine.assemble(baseInput());
    expect(after.estimate.raw).toBe(before.estimate.raw);
    expect(after.estimate.calibrated).toBe(Math.ceil(before.estimate.raw * 1.5));
    expect(after.budget.usable).toBe(before.budget.usable);
    expect(after.budget.raw.usable).toBe(Math.floor(before.budget.usable / 1.5));
    expect(engine.estimate(gpt4o, 'hello world')).toEqual({ raw: 2, calibrated: 3 });
  });
});
