/**
 * English words that say little about what a note is about: a question's "how do I …" and "what is the
 * …". Only the some-words ranking leaves them out (see search-query). There is no list for other
 * languages, so their words all count; the few spelled like one of these (German `was`) are function
 * words there too.
 */
const englishStopWords = new Set(
  `a about above after again against all am an and any are as at be because been before being below
  between both but by can could d did do does doing don down during each few for from further had has
  have having he her here hers herself him himself his how i if in into is it its itself just ll m me
  more most my myself no nor not now of off on once only or other our ours ourselves out over own re s
  same she should so some such t than that the their theirs them themselves then there these they this
  those through to too under until up ve very was we were what when where which while who whom why
  will with would you your yours yourself yourselves`.split(/\s+/),
);

/** Whether a query word (any case) is an English stop word. */
export function isStopWord(word: string): boolean {
  return englishStopWords.has(word.toLowerCase());
}
