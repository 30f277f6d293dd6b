/**
 * Text as search compares it: case folded and Latin diacritics dropped, as FTS5's `remove_diacritics 2`
 * does (`é`, `e` + U+0301 and `e` are one letter). Only the combining marks of U+0300–U+036F go: the
 * vowel signs and viramas of Thai, Devanagari, Bengali and the like are part of their letters, and
 * `ลิงก์` (link) must not fold into `ลงก์`. Recomposed afterwards, so Hangul syllables stay whole.
 */
export function foldForSearch(text: string): string {
  // ASCII needs no decomposition.
  if (!nonAscii.test(text)) return text.toLowerCase();
  return text.normalize('NFD').replace(latinDiacritics, '').normalize('NFC').toLowerCase();
}

const nonAscii = /[\u0080-\u{10ffff}]/u;
const latinDiacritics = /[\u0300-\u036f]/g;
