import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Writes a note into a vault, making its folders. */
export function writeNote(vault: string, path: string, content: string): void {
  mkdirSync(dirname(join(vault, path)), { recursive: true });
  writeFileSync(join(vault, path), content);
}

/**
 * Rules of every kind in the default rules folder: one always, one manual, two agent (one about
 * gardening, one about knitting) and one whose frontmatter cannot be read. Each text has a marker the
 * tests look for in what the model was sent.
 */
export function writeRules(vault: string): void {
  const rule = (name: string, frontmatter: string, text: string) =>
    writeNote(vault, `_kasten/rules/${name}.md`, `---\n${frontmatter}\n---\n${text}\n`);
  rule('Cite sources', 'include: always', 'ALWAYS-RULE: cite every note you use.');
  rule('Pirate voice', 'include: manual', 'MANUAL-RULE: answer like a pirate.');
  rule(
    'Gardening advice',
    'include: agent\ndescription: Advice on gardening, compost, soil and growing tomatoes',
    'AGENT-RULE: suggest compost first.',
  );
  rule(
    'Knitting tips',
    'include: agent\ndescription: Knitting patterns, yarn weights and needle sizes',
    'KNITTING-RULE: mention the yarn weight.',
  );
  rule('Broken', 'include: [always', 'BROKEN-RULE');
}

/** Everything the model was sent in one request, as text. */
export function sentText(request: { messages: unknown[] }): string {
  return JSON.stringify(request.messages);
}
