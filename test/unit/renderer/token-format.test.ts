import { describe, expect, it } from 'vitest';
import {
  calibrationText,
  formatTokens,
  formatWindow,
  meterText,
  reportedText,
} from '../../../src/renderer/src/features/context/token-format';

describe('the context meter text', () => {
  it('reads "2.9k / 4k" for 2,900 tokens of a 4,096-token window', () => {
    expect(meterText(2900, 4096)).toBe('2.9k / 4k');
  });

  it('shows small counts whole, one decimal below ten thousand and none above', () => {
    expect(formatTokens(0)).toBe('0');
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(1000)).toBe('1k');
    expect(formatTokens(1049)).toBe('1k');
    expect(formatTokens(1050)).toBe('1.1k');
    expect(formatTokens(9949)).toBe('9.9k');
    expect(formatTokens(9960)).toBe('10k');
    expect(formatTokens(12_345)).toBe('12k');
    expect(formatTokens(999_499)).toBe('999k');
    expect(formatTokens(1_200_000)).toBe('1.2M');
  });

  it('names power-of-two windows as they are sold and others in thousands', () => {
    expect(formatWindow(4096)).toBe('4k');
    expect(formatWindow(8192)).toBe('8k');
    expect(formatWindow(131_072)).toBe('128k');
    expect(formatWindow(128_000)).toBe('128k');
    expect(formatWindow(200_000)).toBe('200k');
    expect(formatWindow(1_000_000)).toBe('1M');
    expect(formatWindow(1_048_576)).toBe('1M');
  });

  it('never shows a negative or fractional count', () => {
    expect(formatTokens(-5)).toBe('0');
    expect(formatTokens(12.6)).toBe('13');
  });
});

describe('the breakdown facts', () => {
  it('says the calibration ratio and how many answers it was learned from', () => {
    expect(calibrationText({ ratio: 1.0712, samples: 7, answers: 3 })).toBe(
      'calibrated ×1.07 from 3 answers',
    );
    // Three requests of one answer (two tool steps) are one answer.
    expect(calibrationText({ ratio: 0.9, samples: 3, answers: 1 })).toBe('calibrated ×0.90 from 1 answer');
    expect(calibrationText({ ratio: 1, samples: 0, answers: 0 })).toBe('uncalibrated');
  });

  it('says the server has not reported a prompt size until it has', () => {
    expect(reportedText(null)).toBe('not reported yet');
    expect(reportedText(2950)).toBe('reported by the server: 2,950');
  });
});
