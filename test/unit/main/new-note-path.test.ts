import { describe, expect, it } from 'vitest';
import { newNoteSegments, sameName } from '../../../src/main/vault/new-note-path';

describe('newNoteSegments', () => {
  it('splits a vault-relative note path, reading \\ as a separator', () => {
    expect(newNoteSegments('Projects/Garden plan.md')).toEqual(['Projects', 'Garden plan.md']);
    expect(newNoteSegments('./Inbox\\Idea.md')).toEqual(['Inbox', 'Idea.md']);
  });

  it.each([
    ['/etc/passwd.md', /absolute path/],
    ['C:\\Users\\x.md', /absolute path/],
    ['\\\\server\\share\\x.md', /absolute path/],
    ['../outside.md', /outside the vault/],
    ['a/../../b.md', /outside the vault/],
    ['a//b.md', /empty folder name/],
    ['.obsidian/x.md', /Kasten ignores/],
    ['node_modules/x.md', /Kasten ignores/],
    ['Notes: draft.md', /contains ":"/],
    ['tab\there.md', /control character/],
    ['trailing./x.md', /ends with a dot or a space/],
    ['folder /x.md', /ends with a dot or a space/],
    ['aux.md', /device name/],
    ['Com1.backup.md', /device name/],
    [`${'é'.repeat(130)}.md`, /too long/],
    ['notes.txt', /not a Markdown note/],
    ['invoice\u202Edm.exe.md', /direction mark \(U\+202E\)/],
    ['a\u2067b.md', /direction mark \(U\+2067\)/],
    ['left\u200Fright.md', /direction mark/],
    ['arabic\u061Cmark.md', /direction mark/],
    ['zero\u200Bwidth.md', /invisible character \(U\+200B\)/],
    ['\u200B\u200C.md', /invisible character/],
    ['word\u2060joiner.md', /invisible character/],
    ['\uFEFFbom.md', /invisible character \(U\+FEFF\)/],
    ['soft\u00ADhyphen.md', /invisible character \(U\+00AD\)/],
    ['\uFF23\uFF2F\uFF2E.md', /device name/],
    ['con .md', /device name/],
    ['note .md', /before its extension/],
    ['note..md', /before its extension/],
  ])('refuses %j', (path, reason) => {
    expect(() => newNoteSegments(path)).toThrow(reason);
  });
});

describe('sameName', () => {
  it('compares names as case-insensitive, normalizing file systems do', () => {
    expect(sameName('Note.md', 'note.MD')).toBe(true);
    expect(sameName('Caf\u00e9.md', 'cafe\u0301.md')).toBe(true);
    expect(sameName('Note.md', 'Notes.md')).toBe(false);
  });
});
