import { describe, expect, it } from 'vitest';
import { exportName } from '../../../src/main/export/chat-export';
import { newNoteSegments } from '../../../src/main/vault/new-note-path';

const creatable = (name: string) => () => newNoteSegments(`Kasten chats/${name}.md`);

describe('exportName', () => {
  it.each(['CON', 'aux', 'nul.txt', 'ＣＯＮ', 'com1 '])(
    'makes a title that is a device name (%j) a name Windows can hold',
    (title) => {
      const name = exportName(title);
      expect(name).toMatch(/^Chat /);
      expect(creatable(name)).not.toThrow();
    },
  );

  it('cuts a long title with an emoji between words, never inside the emoji', () => {
    const title = `${'word '.repeat(15)}and more🌱 growing`;
    expect(title.length).toBeGreaterThan(80);
    const name = exportName(`${'a'.repeat(78)} 🌱🌱`);
    expect(name).toBe('a'.repeat(78));
    const cut = exportName(title);
    expect(cut.length).toBeLessThanOrEqual(80);
    expect(title.startsWith(cut)).toBe(true);
    expect(cut).not.toMatch(/[\uD800-\uDBFF]$/);
    expect(title[cut.length]).toBe(' ');
  });

  it('keeps a whole emoji that fits, and drops a title\'s cut word with its "…"', () => {
    expect(exportName(`${'b'.repeat(77)}🌱`)).toBe(`${'b'.repeat(77)}🌱`);
    expect(exportName('How does compost turn into hum…')).toBe('How does compost turn into');
  });

  it('drops invisible and direction characters, and trailing dots', () => {
    expect(exportName('plan\u202Etxt.exe')).toBe('plan txt.exe');
    expect(exportName('zero\u200Bwidth...')).toBe('zero width');
    expect(creatable(exportName('zero\u200Bwidth...'))).not.toThrow();
  });
});
