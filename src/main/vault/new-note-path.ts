import { posix, win32 } from 'node:path';
import { AppError } from '../app-error';
import { isIgnoredName, isNotePath } from './vault-files';

// Names Windows cannot hold: devices (with any extension), reserved characters, and a trailing dot or
// space. macOS refuses only `:` and `/`, both refused here too, so a note created here opens everywhere.
const windowsDevice = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
const reservedCharacter = /[<>:"|?*]/;
const longestNameBytes = 255;

/**
 * The segments of the vault path a new note is to be created at, or an AppError saying why it cannot
 * be: an absolute path or `..` (outside the vault), a folder Kasten ignores, a name some system cannot
 * hold, or a file that is not a Markdown note. `\` counts as a separator, as Windows reads it.
 */
export function newNoteSegments(vaultPath: string): string[] {
  const path = vaultPath.normalize('NFC').replaceAll('\\', '/');
  if (posix.isAbsolute(path) || win32.isAbsolute(vaultPath) || /^[a-z]:/i.test(path)) {
    throw new AppError(
      'outside-vault',
      `"${vaultPath}" is an absolute path; notes are only created inside the vault, by vault-relative path.`,
    );
  }
  const segments = path.replace(/^(\.\/)+/, '').split('/');
  if (segments.includes('..')) {
    throw new AppError('outside-vault', `"${vaultPath}" points outside the vault; nothing is created there.`);
  }
  for (const segment of segments) {
    const problem = nameProblem(segment);
    if (problem) throw new AppError('invalid-input', `"${vaultPath}" cannot be created: ${problem}.`);
  }
  if (!isNotePath(path)) {
    throw new AppError('invalid-input', `"${vaultPath}" is not a Markdown note: its name must end in .md.`);
  }
  return segments;
}

function nameProblem(name: string): string | null {
  if (name === '' || name === '.') return 'it has an empty folder name';
  if (isIgnoredName(name)) return `"${name}" starts with "." or is node_modules, which Kasten ignores`;
  if ([...name].some((character) => character < ' ' || character === '\u007f')) {
    return `"${name}" contains a control character, which Windows does not allow in names`;
  }
  const character = reservedCharacter.exec(name)?.[0];
  if (character !== undefined) {
    return `"${name}" contains "${character}", which Windows or macOS does not allow in names`;
  }
  if (/[. ]$/.test(name)) return `"${name}" ends with a dot or a space, which Windows does not allow`;
  if (windowsDevice.test(name)) return `"${name}" is a device name on Windows`;
  if (Buffer.byteLength(name) > longestNameBytes) return `"${name.slice(0, 40)}…" is too long a name`;
  return null;
}

/** Two names the same file on a case-insensitive (or normalizing) file system: macOS's and Windows' defaults. */
export function sameName(a: string, b: string): boolean {
  return a.normalize('NFC').toLowerCase() === b.normalize('NFC').toLowerCase();
}
