import type {
  ApprovalState,
  ChatMessage,
  ChatReference,
  ChatSession,
  ReferenceKind,
  ToolCallPart,
} from '../../shared/chat-domain';
import { parseCitations } from '../../shared/chat/citations';
import { toolResultSize } from '../../shared/chat/tool-result-size';

/** What the reader of an exported chat is told of each kind of reference. */
const kindWords: Record<ReferenceKind, string> = {
  direct: 'mentioned',
  broken: 'mentioned, not found',
  read: 'read',
  'search-hit': 'found by search',
  web: 'web page',
  cited: 'cited',
  selection: 'a passage asked about',
};

/** A wikilink to a vault note by its path, so it resolves to that note whatever else shares its name. */
export function noteLink(path: string, title: string, subpath: string | null = null): string {
  // A web page a question gave (cited like a note) is a link to its address, not a wikilink.
  if (path.startsWith('http://') || path.startsWith('https://'))
    return `[${title.replace(/[[\]]/g, '') || path}](<${path.replace(/[<>]/g, encodeURIComponent)}>)`;
  const target = path.replace(/\.md$/i, '');
  const anchor = subpath ? `#${subpath}` : '';
  const label = title.replace(/[[\]|]/g, '');
  return label && label !== target ? `[[${target}${anchor}|${label}]]` : `[[${target}${anchor}]]`;
}

/** A chat's title as text: its `[[links]]` (the question it began with) as the words they show. */
export function plainTitle(title: string): string {
  return title.replace(/!?\[\[([^\]|]*)(?:\|([^\]]*))?\]\]/g, (_link, target: string, label?: string) =>
    (label ?? target.replace(/#.*$/, '')).trim(),
  );
}

/** A title shortened with "…" (as long questions are) ending at its last whole word instead. */
export function withoutCutWord(title: string): string {
  return title.replace(/ \S*…$/, '');
}

/** The exported note's title: the chat's as text, ending at a whole word, as its file name does. */
export function exportTitle(title: string): string {
  return withoutCutWord(plainTitle(title));
}

/** A YAML string: quoted, with the characters YAML escapes in double quotes escaped. */
function yamlString(text: string): string {
  return JSON.stringify(text);
}

function time(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

/** What became of a write call's change, as the exported chat says it. */
const approvalWords: Record<ApprovalState, string> = {
  pending: 'not written',
  interrupted: 'not written',
  approved: 'written',
  rejected: 'rejected, not written',
  failed: 'approved, but not written',
  undone: 'written, then undone',
};

/** A tool call as one short line: what was asked, and what it found or what became of its change. */
function toolLine(call: ToolCallPart, references: readonly ChatReference[]): string {
  const args = (call.args ?? {}) as Record<string, unknown>;
  const found = references.filter((reference) => reference.toolCallId === call.id);
  const what =
    typeof args.query === 'string'
      ? `"${args.query}"`
      : typeof args.note === 'string' || typeof args.link === 'string' || typeof args.path === 'string'
        ? String(args.note ?? args.link ?? args.path)
        : '';
  if (call.approval) return `${call.name}${what ? ` ${what}` : ''} → ${approvalWords[call.approval.state]}`;
  const notes = [...new Map(found.map((reference) => [reference.path, reference])).values()];
  // Without the notes it found (an answer cut off before they were recorded), what the chat shows: its size.
  const outcome =
    call.ok === false
      ? 'failed'
      : call.ok === null
        ? 'did not finish'
        : notes.length === 1
          ? noteLink(notes[0]!.path, notes[0]!.title, notes[0]!.subpath)
          : notes.length > 1
            ? `${notes.length} notes`
            : toolResultSize(call.output?.length ?? 0);
  return `${call.name}${what ? ` ${what}` : ''} → ${outcome}`;
}

/** An answer's text with its `[n]` citations as links to the cited notes (at their heading when cited at one). */
function citedText(message: ChatMessage, text: string, documents: ChatSession['documents']): string {
  const byNumber = new Map(documents.map((document) => [document.number, document]));
  return parseCitations(text, (number) => byNumber.has(number))
    .map((part) => {
      if (part.type === 'text') return part.text;
      const links = part.numbers.map((number) => {
        const document = byNumber.get(number)!;
        const cited = message.references.find(
          (reference) => reference.kind === 'cited' && reference.document === number,
        );
        return noteLink(document.path, document.title, cited?.subpath ?? null);
      });
      return `(${links.join(', ')})`;
    })
    .join('');
}

/**
 * The user's text with the links that led nowhere when asked written as plain text (`\[\[No such note]]`):
 * the exported note holds no broken link, and still shows what was typed.
 */
function withoutBrokenLinks(message: ChatMessage, text: string): string {
  const broken = new Set(
    message.references.filter((reference) => reference.kind === 'broken').map((reference) => reference.path),
  );
  if (broken.size === 0) return text;
  return text.replace(
    /(!?)\[\[([^\]|#^]*)([^\]]*)\]\]/g,
    (link, bang: string, target: string, rest: string) =>
      broken.has(target.trim()) ? `${bang}\\[\\[${target}${rest}]]` : link,
  );
}

function messageMarkdown(message: ChatMessage, session: ChatSession): string[] {
  const lines: string[] = [];
  const who = message.role === 'user' ? 'You' : `Assistant${message.model ? ` (${message.model})` : ''}`;
  lines.push(`## ${who} · ${time(message.createdAt)}`, '');
  const calls = message.parts.filter((part): part is ToolCallPart => part.type === 'tool-call');
  if (calls.length > 0) {
    // Folded, as Obsidian shows callouts ending in `-`: the steps are there for whoever wants them.
    lines.push(`> [!info]- ${calls.length} ${calls.length === 1 ? 'tool call' : 'tool calls'}`);
    for (const call of calls) lines.push(`> - ${toolLine(call, message.references)}`);
    lines.push('');
  }
  const text = message.parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('')
    .trim();
  if (text) {
    lines.push(
      message.role === 'assistant'
        ? citedText(message, text, session.documents)
        : withoutBrokenLinks(message, text),
      '',
    );
  }
  const files = message.parts.flatMap((part) => (part.type === 'attachment' ? [part.attachment] : []));
  if (files.length > 0) {
    const described = files.map((file) => `\`${file.name}\`${file.pages ? ` (${file.pages} pages)` : ''}`);
    lines.push(`*Attached: ${described.join(', ')}*`, '');
  }
  if (message.status === 'stopped') lines.push('*(Stopped before the answer was finished.)*', '');
  if (message.status === 'interrupted') lines.push('*(Interrupted: Kasten closed while answering.)*', '');
  if (message.status === 'error')
    lines.push(`*(The answer failed: ${message.error ?? 'unknown error'})*`, '');
  return lines;
}

/** Every note the chat used, once, with every way it was used. */
function referencesSection(session: ChatSession): string[] {
  const notes = new Map<string, { title: string; kinds: Set<ReferenceKind> }>();
  for (const message of session.messages) {
    for (const reference of message.references) {
      const entry = notes.get(reference.path) ?? { title: reference.title, kinds: new Set() };
      entry.kinds.add(reference.kind);
      notes.set(reference.path, entry);
    }
  }
  if (notes.size === 0) return [];
  const order = Object.keys(kindWords) as ReferenceKind[];
  const lines = ['## References', ''];
  for (const [path, { title, kinds }] of notes) {
    const words = order.filter((kind) => kinds.has(kind)).map((kind) => kindWords[kind]);
    // A broken mention is no note: its path is what was written, and a link to it would be broken too.
    const name =
      kinds.has('broken') && kinds.size === 1 ? `${title} (not in the vault)` : noteLink(path, title);
    lines.push(`- ${name} — ${words.join(', ')}`);
  }
  return [...lines, ''];
}

/**
 * A chat as a Markdown note: frontmatter (title, date, model, session id), the conversation with tool
 * calls folded into short lines, citations as wikilinks to the cited notes, and every note used.
 */
export function chatMarkdown(session: ChatSession, exportedAt: Date): string {
  const models = [
    ...new Set(session.messages.map((message) => message.model).filter((model) => model !== null)),
  ];
  const front = [
    '---',
    `title: ${yamlString(exportTitle(session.title))}`,
    `date: ${session.createdAt}`,
    `exported: ${exportedAt.toISOString()}`,
    ...(models.length === 1 ? [`model: ${yamlString(models[0]!)}`] : []),
    ...(models.length > 1 ? ['model:', ...models.map((model) => `  - ${yamlString(model)}`)] : []),
    `session: ${session.id}`,
    'tags: [kasten-chat]',
    '---',
    '',
  ];
  const body = session.messages.flatMap((message) => messageMarkdown(message, session));
  return (
    [...front, `# ${exportTitle(session.title)}`, '', ...body, ...referencesSection(session)]
      .join('\n')
      .trimEnd() + '\n'
  );
}
