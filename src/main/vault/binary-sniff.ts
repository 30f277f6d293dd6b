/** How much of a file is looked at to tell a binary file from text. */
const sniffBytes = 8192;

/** A NUL byte near the start marks a binary file (an image or archive named `.md`), as git decides too. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, sniffBytes).includes(0);
}
