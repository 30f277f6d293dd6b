import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConnection } from '../../../src/renderer/src/connection';
import { sidebarForShortcut } from '../../../src/renderer/src/features/layout/layout-store';
import { readLayout, writeLayout } from '../../../src/renderer/src/features/layout/saved-layout';

const key = { ctrlKey: false, metaKey: false, shiftKey: false, altKey: false };

describe('sidebar shortcuts', () => {
  it('Ctrl or Cmd with the backslash key toggles the tree; with Shift, the references', () => {
    expect(sidebarForShortcut({ ...key, code: 'Backslash', ctrlKey: true })).toBe('tree');
    expect(sidebarForShortcut({ ...key, code: 'Backslash', metaKey: true })).toBe('tree');
    // Shift+\ types "|" on many layouts: the key's position, not its character, decides.
    expect(sidebarForShortcut({ ...key, code: 'Backslash', ctrlKey: true, shiftKey: true })).toBe(
      'references',
    );
  });

  it('leaves plain typing, Alt chords and other keys alone', () => {
    expect(sidebarForShortcut({ ...key, code: 'Backslash' })).toBeNull();
    expect(sidebarForShortcut({ ...key, code: 'Backslash', ctrlKey: true, altKey: true })).toBeNull();
    expect(sidebarForShortcut({ ...key, code: 'KeyB', ctrlKey: true })).toBeNull();
  });
});

describe('remembered split sizes', () => {
  afterEach(() => vi.unstubAllGlobals());

  function stubStorage(initial: Record<string, string> = {}) {
    const values = new Map(Object.entries(initial));
    vi.stubGlobal('localStorage', {
      getItem: (name: string) => values.get(name) ?? null,
      setItem: (name: string, value: string) => values.set(name, value),
    });
    return values;
  }

  it('reads back what was written', () => {
    stubStorage();
    writeLayout('kasten.layout.wide', { tree: 20, center: 60, references: 20 });
    expect(readLayout('kasten.layout.wide')).toEqual({ tree: 20, center: 60, references: 20 });
  });

  it('reads damaged or foreign values as none, so the defaults apply', () => {
    stubStorage({ broken: '{not json', text: '{"tree":"wide"}', big: '{"tree":140}', empty: '{}' });
    for (const name of ['broken', 'text', 'big', 'empty', 'missing'])
      expect(readLayout(name)).toBeUndefined();
  });
});

describe('connection state', () => {
  it('tells listeners the new state and the one before, once per change', () => {
    const connection = createConnection('connecting');
    const seen: string[] = [];
    connection.subscribe((state, previous) => seen.push(`${previous}→${state}`));
    connection.set('connected');
    connection.set('connected');
    connection.set('lost');
    connection.set('connected');
    expect(seen).toEqual(['connecting→connected', 'connected→lost', 'lost→connected']);
    expect(connection.get()).toBe('connected');
  });
});
