/** A tool result's size as the chat shows it: "843 chars", "2.1k chars". */
export function toolResultSize(characters: number): string {
  return characters < 1000 ? `${characters} chars` : `${(characters / 1000).toFixed(1)}k chars`;
}
