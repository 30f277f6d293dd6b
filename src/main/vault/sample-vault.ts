import { cp, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The sample vault is copied into the data directory on first start, so the user can edit it freely
 * and the app's own resources stay untouched.
 */
export async function ensureSampleVault(resourcesDir: string, dataDir: string): Promise<string> {
  const target = join(dataDir, 'Sample Vault');
  const exists = await stat(target).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (!exists) await cp(join(resourcesDir, 'sample-vault'), target, { recursive: true });
  return target;
}
