import type { FileHandle } from 'node:fs/promises';
import type { ErrorCode } from '../../shared/contract';
import { AppError } from '../app-error';
import { openConfined, RefusedPath, type Refusal } from './confined-file';

const codes: Record<Refusal['kind'], ErrorCode> = {
  outside: 'outside-vault',
  ignored: 'not-found',
  'not-found': 'not-found',
  'not-a-file': 'not-found',
  denied: 'forbidden',
  failed: 'internal',
};

/** A vault file's bytes, as read from the descriptor that was checked to lie inside the vault. */
export interface VaultFileBytes {
  bytes: Buffer;
  size: number;
  modifiedAt: string;
}

/**
 * Reads a vault-relative path from outside (renderer, model, CLI) confined to the vault: opened first,
 * then what was opened is checked, then read from that same descriptor (see confined-file.ts).
 * Refusals become AppErrors the UI can show.
 */
export async function readVaultFile(
  realRoot: string,
  vaultPath: string,
  maxBytes: number,
): Promise<VaultFileBytes> {
  let opened;
  try {
    opened = await openConfined(realRoot, vaultPath);
  } catch (error) {
    if (error instanceof RefusedPath) throw new AppError(codes[error.refusal.kind], error.message);
    throw error;
  }
  const { handle, stats } = opened;
  try {
    if (stats.size > maxBytes) {
      throw new AppError(
        'too-large',
        `"${vaultPath}" is ${(stats.size / 1048576).toFixed(1)} MB, too large to open.`,
      );
    }
    const bytes = await readUpTo(handle, stats.size);
    return { bytes, size: stats.size, modifiedAt: stats.mtime.toISOString() };
  } finally {
    await handle.close();
  }
}

/**
 * An open file's bytes, at most `size` (the size seen when opened): a file growing meanwhile cannot
 * make the read unbounded.
 */
export async function readUpTo(handle: FileHandle, size: number): Promise<Buffer> {
  const bytes = Buffer.alloc(size);
  let filled = 0;
  while (filled < bytes.length) {
    const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return bytes.subarray(0, filled);
}
