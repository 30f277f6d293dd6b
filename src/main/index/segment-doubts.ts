import { wordTokens } from './word-segments';

const han = /\p{scx=Han}/u;

/** A character of Chinese (or a kanji) left alone by the segmenter. */
function isLoneHan(token: string): boolean {
  return [...token].length === 1 && han.test(token);
}

/**
 * The words of `word` as the index holds them (see wordTokens), without those the segmenter may have cut
 * out of a longer word. ICU's dictionary lacks many compounds (链接 "link", 插件 "plugin") and then leaves a
 * character alone and takes the next one into a word it knows: 链接到 "link to" becomes 链|接到 ("receive").
 * A word of two or more characters beside such a lone character is left out, unless the lone character is a
 * word of its own (a stop word such as 到 "to", 的).
 */
export function surelyCutTokens(word: string, isStopWord: (token: string) => boolean): string[] {
  const tokens = wordTokens(word);
  if (tokens.length < 2) return tokens;
  const doubtful = new Set<number>();
  tokens.forEach((token, index) => {
    if (!isLoneHan(token) || isStopWord(token)) return;
    for (const neighbour of [index - 1, index + 1]) {
      const other = tokens[neighbour];
      if (other !== undefined && [...other].length >= 2 && han.test(other)) doubtful.add(neighbour);
    }
  });
  return doubtful.size === 0 ? tokens : tokens.filter((_, index) => !doubtful.has(index));
}
