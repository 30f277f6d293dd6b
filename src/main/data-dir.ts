import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * `--data-dir`, else `KASTEN_DATA_DIR`, else the platform's app-data folder — the same folder
 * Electron uses as `userData` for an app named "kasten", so the CLI and the desktop share data.
 * An empty `KASTEN_DATA_DIR` counts as unset, as shells treat `VAR=`; the CLI refuses an empty flag.
 */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return resolve(flag);
  if (env.KASTEN_DATA_DIR) return resolve(env.KASTEN_DATA_DIR);
  if (process.platform === 'win32')
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'kasten');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'kasten');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'kasten');
}
