const base = 'http://vault/';

/**
 * The vault path a URL in a note's HTML (`<img src>`, `<a href>`) points at: relative to the note's folder,
 * or to the vault with a leading `/`; null for anything that is no path in the vault (`//host/x.png`).
 */
export function vaultPath(url: string, notePath: string): string | null {
  const folder = notePath.split('/').slice(0, -1).map(encodeURIComponent).join('/');
  try {
    const resolved = new URL(url, base + (folder ? `${folder}/` : ''));
    if (resolved.origin !== new URL(base).origin) return null;
    const path = decodeURIComponent(resolved.pathname.slice(1));
    return path === '' ? null : path;
  } catch {
    return null;
  }
}
