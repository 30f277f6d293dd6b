import { stringify } from 'yaml';

/** A web page as a note of its own: title, address and the day it was saved in frontmatter, then the page. */
export function webPageNote(page: { title: string; url: string; text: string }, savedAt: Date): string {
  const frontmatter = stringify({
    title: page.title,
    source: page.url,
    saved: savedAt.toISOString().slice(0, 10),
  });
  return `---\n${frontmatter}---\n\n${page.text.trim()}\n`;
}
