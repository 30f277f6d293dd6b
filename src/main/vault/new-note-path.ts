import { posix, win32 } from 'node:path';
import { AppError } from '../app-error';
import { isIgnoredName, isNotePath } from './vault-files';

// Names Windows cannot hold: devices (with any extension), reserved characters, and a trailing dot or
// space. macOS refuses only `:` and `/`, both refused here too, so a note created here opens everywhere.
// Windows ignores spaces after a device name, and sees through full-width and other compatibility forms.
const windowsDevice = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³]) *(\..*)?$/i;
// Characters that reorder the text around them (bidi controls), or show as nothing at all: with them a
// name reads as another (`evil\u202Edm.exe`) or two different names look the same.
const directionMark = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;
const invisibleCharacter = /[\u200B-\u200D\u2060\uFEFF\u00AD]/u;
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
  const direction = directionMark.exec(name)?.[0];
  if (direction !== undefined) {
    return `"${name}" contains an invisible direction mark (${codePoint(direction)}), which makes a name read as another`;
  }
  const invisible = invisibleCharacter.exec(name)?.[0];
  if (invisible !== undefined) {
    return `"${name}" contains an invisible character (${codePoint(invisible)}), so it could not be told from another name`;
  }
  if (/[. ]$/.test(name)) return `"${name}" ends with a dot or a space, which Windows does not allow`;
  if (isWindowsDevice(name)) return `"${name}" is a device name on Windows`;
  if (/[. ]\.[^.]*$/.test(name)) {
    return `"${name}" ends with a dot or a space before its extension, which Windows drops or misreads`;
  }
  if (Buffer.byteLength(name) > longestNameBytes) return `"${name.slice(0, 40)}…" is too long a name`;
  return null;
}

/** Whether Windows reads `name` as a device (CON, NUL, COM1…), whatever its extension or width. */
export function isWindowsDevice(name: string): boolean {
  return windowsDevice.test(name.normalize('NFKC'));
}

function codePoint(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Two names the same file on a case-insensitive (or normalizing) file system: macOS's and Windows' defaults. */
export function sameName(a: string, b: string): boolean {
  return a.normalize('NFC').toLowerCase() === b.normalize('NFC').toLowerCase();
}
