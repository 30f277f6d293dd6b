import { realpath } from 'node:fs/promises';
import { isAbsolute, join, posix, win32 } from 'node:path';
import { AppError } from '../app-error';
import { isIgnoredName, isInside } from './vault-files';

/**
 * Turns a vault-relative path from outside (renderer, model, CLI) into an absolute path that is
 * guaranteed to stay inside the vault, following symlinks. Everything else is refused.
 */
export async function confineToVault(root: string, vaultPath: string): Promise<string> {
  if (isAbsolute(vaultPath) || posix.isAbsolute(vaultPath) || win32.isAbsolute(vaultPath)) {
    throw new AppError(
      'outside-vault',
      `"${vaultPath}" is an absolute path; only paths inside the vault can be opened.`,
    );
  }
  const normalized = posix.normalize(vaultPath.replaceAll('\\', '/'));
  const segments = normalized.split('/');
  if (segments[0] === '..') {
    throw new AppError('outside-vault', `"${vaultPath}" points outside the vault.`);
  }
  if (segments.some((segment) => segment !== '.' && isIgnoredName(segment))) {
    throw new AppError('not-found', `"${vaultPath}" is in a folder Kasten ignores.`);
  }
  const realRoot = await realpath(root);
  const target = await realpath(join(realRoot, ...segments)).catch(() => {
    throw new AppError('not-found', `"${vaultPath}" does not exist in the vault.`);
  });
  if (!isInside(realRoot, target)) {
    throw new AppError('outside-vault', `"${vaultPath}" leads outside the vault.`);
  }
  return target;
}
