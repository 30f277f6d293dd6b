/** The renderer's Content-Security-Policy, the same on the desktop and in the browser host. */
export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  // Audio and video embedded in a note play from the blob the page made of the vault's file.
  'media-src blob:',
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join('; ');
