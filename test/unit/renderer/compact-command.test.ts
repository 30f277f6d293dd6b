import { describe, expect, it } from 'vitest';
import { compactCommand } from '../../../src/renderer/src/features/context/compact-command';

describe('/compact in the composer', () => {
  it('is a command without a focus', () => {
    expect(compactCommand('/compact')).toEqual({ focus: null });
    expect(compactCommand('  /compact  \n')).toEqual({ focus: null });
  });

  it('takes the rest of the text as the focus, lines included', () => {
    expect(compactCommand('/compact the garden plans')).toEqual({ focus: 'the garden plans' });
    expect(compactCommand('/compact\nkeep the dates\nand names')).toEqual({
      focus: 'keep the dates\nand names',
    });
  });

  it('leaves other messages to be sent', () => {
    expect(compactCommand('/compaction is what?')).toBeNull();
    expect(compactCommand('please /compact')).toBeNull();
    expect(compactCommand('/Compact')).toBeNull();
    expect(compactCommand('')).toBeNull();
  });
});
