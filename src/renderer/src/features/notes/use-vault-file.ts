import { useEffect, useState } from 'react';
import { describeError, kasten } from '../../api';

/** A file of the vault in the page: its bytes, and a `blob:` URL of them typed as the host says. */
export interface VaultFile {
  path: string;
  url: string;
  bytes: Uint8Array;
  mimeType: string;
}

interface Read {
  path: string;
  file?: VaultFile;
  error?: string;
}

const fromBase64 = (Uint8Array as { fromBase64?: (base64: string) => Uint8Array }).fromBase64;

function decode(base64: string): Uint8Array {
  if (fromBase64) return fromBase64(base64);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * How long a URL outlives its component: a player or viewer torn down mid-load still reads it, and
 * revoked at once it would fail (and say so in the console).
 */
const revokeAfterMs = 10_000;

/**
 * Reads a file of the vault through the contract (`attachments:read`, which the host confines to the
 * vault and types by extension): no file URL and no network address ever reaches the page. The URL is
 * revoked a little after the path changes or the component goes.
 */
export function useVaultFile(path: string): { file?: VaultFile; error?: string } {
  const [read, setRead] = useState<Read | null>(null);

  useEffect(() => {
    let url: string | undefined;
    let cancelled = false;
    kasten.attachments.read({ path }).then(
      ({ base64, mimeType }) => {
        if (cancelled) return;
        const bytes = decode(base64);
        url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mimeType }));
        setRead({ path, file: { path, url, bytes, mimeType } });
      },
      (error: unknown) => !cancelled && setRead({ path, error: describeError(error) }),
    );
    return () => {
      cancelled = true;
      if (url) {
        const gone = url;
        setTimeout(() => URL.revokeObjectURL(gone), revokeAfterMs);
      }
    };
  }, [path]);

  return read?.path === path ? read : {};
}
