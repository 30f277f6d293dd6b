/** Splits a search snippet into plain and matched parts (matches sit between `\u0002` and `\u0003`). */
export function snippetParts(snippet: string): { text: string; match: boolean }[] {
  const parts: { text: string; match: boolean }[] = [];
  const add = (text: string, match: boolean) => text && parts.push({ text, match });
  const [lead = '', ...marked] = snippet.split('\u0002');
  add(lead, false);
  for (const chunk of marked) {
    const end = chunk.indexOf('\u0003');
    add(end < 0 ? chunk : chunk.slice(0, end), true);
    if (end >= 0) add(chunk.slice(end + 1), false);
  }
  return parts;
}
