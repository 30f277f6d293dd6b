/** Prose that is not one word repeated: a note of about `words` words. */
export function prose(topic: string, words: number): string {
  const vocabulary =
    `${topic} notes link ideas across folders while each card keeps one thought and its source`.split(' ');
  const out: string[] = [];
  for (let index = 0; out.length < words; index++) {
    out.push(vocabulary[(index * 7) % vocabulary.length]!);
    if (index % 13 === 12) out.push(`${topic.toLowerCase()}-${index}.`);
  }
  return out.join(' ');
}

/** A summary a compaction accepts: structured, citing, far shorter than what it replaces. */
export const summaryText = [
  '## Goal',
  'Understand the notes on linking.',
  '## Decisions',
  'None.',
  '## Facts',
  'Links matter more than folders [1].',
  '## Open questions',
  'None.',
  '## Next steps',
  'Keep asking.',
].join('\n');

/** The turn number the latest question of a request carries ("Question 17: …"); 0 when none does. */
export function turnOf(request: { messages: unknown }): number {
  const numbers = [...JSON.stringify(request.messages).matchAll(/Question (\d+):/g)];
  return Number(numbers.at(-1)?.[1] ?? 0);
}
