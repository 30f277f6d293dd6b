import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveDataDir } from '../../../src/main/data-dir';

describe('data directory', () => {
  it('prefers --data-dir, then KASTEN_DATA_DIR unless empty, then the platform folder', () => {
    expect(resolveDataDir('rel/dir', { KASTEN_DATA_DIR: '/env' })).toBe(resolve('rel/dir'));
    expect(resolveDataDir(undefined, { KASTEN_DATA_DIR: '/env/kasten' })).toBe(resolve('/env/kasten'));
    if (process.platform === 'linux') {
      expect(resolveDataDir(undefined, { XDG_CONFIG_HOME: '/xdg' })).toBe('/xdg/kasten');
      expect(resolveDataDir(undefined, {})).toBe(join(homedir(), '.config', 'kasten'));
      expect(resolveDataDir(undefined, { KASTEN_DATA_DIR: '', XDG_CONFIG_HOME: '/xdg' })).toBe('/xdg/kasten');
    }
  });
});
