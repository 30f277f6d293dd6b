/**
 * Opens a page in the system browser: only http and https. In the desktop app the main process gets the
 * new window's address and hands it to the system (shell.openExternal); in a browser it is a new tab that
 * cannot reach back to Kasten's (noopener, noreferrer).
 */
export function openWebPage(url: string): boolean {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return false;
  }
  if (protocol !== 'http:' && protocol !== 'https:') return false;
  window.open(url, '_blank', 'noopener,noreferrer');
  return true;
}

/** Whether a reference's path is a web page's address rather than a note's. */
export const isWebAddress = (path: string) => path.startsWith('http://') || path.startsWith('https://');
