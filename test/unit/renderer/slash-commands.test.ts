import { describe, expect, it } from 'vitest';
import type { PromptInfo } from '../../../src/shared/prompt-domain';
import {
  promptCall,
  slashCommands,
  slashQuery,
} from '../../../src/renderer/src/features/prompts/slash-commands';

function prompt(name: string, description: string | null = null): PromptInfo {
  return {
    name,
    path: `_kasten/prompts/${name}.md`,
    description,
    model: null,
    include: { rules: [], tools: [] },
    variables: ['note'],
    usesSelection: false,
    warnings: [],
    usable: true,
  };
}

const prompts = [prompt('Summarize', 'A permanent note'), prompt('Find contradictions'), prompt('Explain')];

describe('the / command being typed', () => {
  it('is what follows a / at the start, while the caret is in its first word', () => {
    expect(slashQuery('/', 1)).toBe('');
    expect(slashQuery('/sum', 4)).toBe('sum');
    expect(slashQuery('/Summarize ', 11)).toBeNull();
  });

  it('is nothing for a / in the middle of a sentence or a message not starting with one', () => {
    expect(slashQuery('and/or', 4)).toBeNull();
    expect(slashQuery(' /sum', 5)).toBeNull();
    expect(slashQuery('why? /sum', 9)).toBeNull();
  });
});

describe('the / list', () => {
  it('holds every prompt and /compact, filtered by name start first, then by a word inside it', () => {
    expect(slashCommands(prompts, '').map((command) => command.name)).toEqual([
      'compact',
      'Explain',
      'Find contradictions',
      'Summarize',
    ]);
    expect(slashCommands(prompts, 'co').map((command) => command.name)).toEqual([
      'compact',
      'Find contradictions',
    ]);
    expect(slashCommands(prompts, 'find-con').map((command) => command.name)).toEqual([
      'Find contradictions',
    ]);
    expect(slashCommands(prompts, 'zzz')).toEqual([]);
  });
});

describe('the saved prompt a message calls', () => {
  it('is its name after the /, case and a dashed form aside, with the words after it', () => {
    expect(promptCall('/summarize', prompts)).toEqual({ prompt: prompts[0], rest: '' });
    expect(promptCall('/Find contradictions about links', prompts)).toEqual({
      prompt: prompts[1],
      rest: 'about links',
    });
    expect(promptCall('/find-contradictions', prompts)?.prompt).toBe(prompts[1]);
  });

  it('is none for another word, a name only begun, or a / inside the text', () => {
    expect(promptCall('/Summarizes', prompts)).toBeNull();
    expect(promptCall('/compact', prompts)).toBeNull();
    expect(promptCall('Please /Summarize', prompts)).toBeNull();
  });

  it('is the longest name when one name begins another', () => {
    const both = [prompt('Explain'), prompt('Explain simply')];
    expect(promptCall('/Explain simply this', both)).toEqual({ prompt: both[1], rest: 'this' });
  });
});
