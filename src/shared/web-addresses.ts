/** Characters that end a sentence or close a bracket around an address rather than belong to it. */
const trailing = new Set([...'.,;:!?)]}>\'"»”’']);

/**
 * The http and https addresses written in a message, in order, each once: a word that starts with
 * `http://` or `https://` and parses as a URL, without the punctuation that follows it in a sentence
 * (a closing parenthesis stays when the address opened one, as Wikipedia's do).
 */
export function webAddressesIn(text: string): string[] {
  const found: string[] = [];
  for (const word of text.split(/\s+/)) {
    const starts = [word.indexOf('http://'), word.indexOf('https://')].filter((at) => at >= 0);
    if (starts.length === 0) continue;
    let candidate = word.slice(Math.min(...starts));
    while (candidate.length > 0 && trailing.has(candidate.at(-1)!)) {
      const opened = candidate.split('(').length - 1;
      if (candidate.endsWith(')') && opened >= candidate.split(')').length - 1) break;
      candidate = candidate.slice(0, -1);
    }
    try {
      const url = new URL(candidate);
      if (
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        url.hostname &&
        !found.includes(candidate)
      )
        found.push(candidate);
    } catch {
      // Not an address after all.
    }
  }
  return found;
}
