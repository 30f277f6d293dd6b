import { describe, expect, it } from 'vitest';
import { maxToolNameLength, qualifiedToolName, ToolNames } from '../../src/main/mcp/mcp-tool-names';

describe('qualifiedToolName', () => {
  it('is mcp__<server>__<tool> in the characters model APIs accept', () => {
    expect(qualifiedToolName('files', 'read_file')).toBe('mcp__files__read_file');
    expect(qualifiedToolName('my files', 'läs.fil/v2')).toBe('mcp__my_files__l_s_fil_v2');
  });

  it('cuts long names to 64 characters, keeping them apart by a tag of the full name', () => {
    const server = '3f2b8c1e-6d4a-4b7f-9e21-0c5d8a7b6f43';
    const first = qualifiedToolName(server, 'search_the_whole_knowledge_base_by_meaning');
    const second = qualifiedToolName(server, 'search_the_whole_knowledge_base_by_keyword');
    expect(first).toHaveLength(maxToolNameLength);
    expect(first).toMatch(/^mcp__3f2b8c1e-[A-Za-z0-9_-]+$/);
    expect(first).not.toBe(second);
  });
});

describe('ToolNames', () => {
  it('gives names that clean up to the same text a suffix, and keeps every name it gave', () => {
    const names = new ToolNames();
    expect(names.name('files', 'a.b')).toBe('mcp__files__a_b');
    expect(names.name('files', 'a b')).toBe('mcp__files__a_b_2');
    expect(names.name('files', 'a.b')).toBe('mcp__files__a_b');
    expect(names.lookup('mcp__files__a_b_2')).toEqual({ server: 'files', tool: 'a b' });
  });

  it('keeps suffixed names within 64 characters', () => {
    const names = new ToolNames();
    const long = 'x'.repeat(80);
    const first = names.name('s', `${long}.`);
    const second = names.name('s', `${long}.`.replace('.', ' '));
    expect(first).not.toBe(second);
    expect(second.length).toBeLessThanOrEqual(maxToolNameLength);
  });

  it('forgets the names of a removed server only', () => {
    const names = new ToolNames();
    names.name('a', 'echo');
    names.name('b', 'echo');
    names.forget('a');
    expect(names.lookup('mcp__a__echo')).toBeUndefined();
    expect(names.lookup('mcp__b__echo')).toEqual({ server: 'b', tool: 'echo' });
  });
});
