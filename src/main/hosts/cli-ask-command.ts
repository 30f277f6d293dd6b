import {
  messageText,
  type ChatMessage,
  type ProposedChange,
  type ReferenceKind,
} from '../../shared/chat-domain';
import type { RequestContext } from '../../shared/context-domain';
import { applyDelta } from '../../shared/chat/message-delta';
import type { CliApp } from './cli-app';
import { diffText } from '../../shared/chat/diff-text';
import { call } from './cli-call';
import { questionPages } from './cli-web-pages';
import { askItems, requestItemsReport, type AskItemFlags } from './cli-items-commands';

export interface AskArguments {
  question?: string;
  sessionId?: string;
  json: boolean;
  /** `--pin`, `--attach`, `--rule`. */
  items?: AskItemFlags;
  savedPrompt?: SavedPromptFlags;
}

/** `--prompt NAME [--note PATH] [--selection TEXT]`: the note by its path in the vault or its name. */
export interface SavedPromptFlags {
  name: string;
  note?: string;
  selection?: string;
}

export interface AskEnvironment {
  stdout: (text: string) => void;
  /** Streamed answer text, written without a line break. */
  write: (text: string) => void;
  stderr: (text: string) => void;
  /** Resolves on Ctrl+C: the answer is stopped and what arrived is kept. */
  untilStopped: () => Promise<void>;
}

/**
 * `kasten ask`: sends the question as the other hosts do, streams the answer as it is announced, then
 * prints it with its references (or the whole report as JSON); 0 when the answer completed.
 */
export async function runAsk(app: CliApp, args: AskArguments, env: AskEnvironment): Promise<number> {
  const items = await askItems(app, args.items ?? { pins: [], attachments: [], rules: [] });
  const pages = await questionPages(app, args.question ?? '');
  if (pages.length > 0) items.attachments = [...(items.attachments ?? []), ...pages];
  const stream = streamAnswer(app, args.json, env.write);
  let turn;
  let answer;
  try {
    turn = args.savedPrompt
      ? await call(app, 'prompts:send', {
          sessionId: args.sessionId,
          name: args.savedPrompt.name,
          note: args.savedPrompt.note && (await notePath(app, args.savedPrompt.note)),
          selection: args.savedPrompt.selection,
          text: args.question,
          attachments: items.attachments,
        })
      : await call(app, 'chat:send', { sessionId: args.sessionId, text: args.question ?? '', ...items });
    const sessionId = turn.session.id;
    void env.untilStopped().then(() => call(app, 'chat:stop', { sessionId }));
    answer = await stream.answer(turn.assistantMessage.id);
  } finally {
    stream.stop();
  }
  const session = await call(app, 'sessions:get', { id: turn.session.id });
  const user = session.messages.find((message) => message.id === turn.userMessage.id);
  const report = {
    ...answerReport(session.id, answer, user?.references ?? []),
    ...contextReport(answer.requests.at(-1), session.compactions.length),
  };
  if (args.json) env.stdout(JSON.stringify(report, null, 2));
  else {
    stream.finish(answer);
    env.stdout('');
    for (const change of report.changes) env.stdout(`\n${describeWrite(change)}`);
    if (report.changes.length > 0) {
      env.stdout(`\nkasten undo <vault> --session ${session.id} takes these changes back.`);
    }
    if (report.references.length > 0) {
      env.stdout('\nReferences:');
      for (const reference of report.references) {
        env.stdout(`  ${reference.path}  (${reference.kinds.join(', ')})`);
      }
    }
    env.stdout(`\nSession ${session.id}`);
  }
  if (answer.status === 'error') env.stderr(`kasten: ${answer.error}`);
  if (answer.status === 'stopped') env.stderr('kasten: stopped; the answer so far is saved.');
  return answer.status === 'complete' ? 0 : 1;
}

/** `--note`: a path in the vault as given, else what a `[[link]]` of that name leads to. */
async function notePath(app: CliApp, note: string): Promise<string> {
  const path = note.replace(/\\/g, '/').replace(/^\.\//, '');
  if (/\.md$/i.test(path)) return path;
  const [resolved] = await call(app, 'links:resolve', { links: [{ target: note, subpath: null }] });
  return resolved?.kind === 'note' && resolved.path ? resolved.path : path;
}

/**
 * Hears the answers announced from now on: writes the one being asked for as it streams (unless `json`),
 * and keeps each answer's end (its `chat:message` with a finished status) by message id, as an answer
 * may end before `chat:send` has said which message it is.
 */
function streamAnswer(app: CliApp, json: boolean, write: (text: string) => void) {
  let assistantId = -1;
  let printed = 0;
  // The answer as announced: a whole message, then deltas applied to it.
  let streamed: ChatMessage | null = null;
  const print = (message: ChatMessage) => {
    streamed = message;
    const text = messageText(message);
    if (text.length > printed) write(text.slice(printed));
    printed = Math.max(printed, text.length);
  };
  const ended = new Map<number, ChatMessage>();
  const waiting = new Map<number, (message: ChatMessage) => void>();
  const stops = [
    app.events.on('chat:message', (message) => {
      if (!json && message.id === assistantId) print(message);
      if (message.role !== 'assistant' || message.status === 'streaming') return;
      const resolve = waiting.get(message.id);
      if (resolve) resolve(message);
      else ended.set(message.id, message);
    }),
    app.events.on('chat:delta', (delta) => {
      if (json || delta.messageId !== assistantId) return;
      const next = streamed && applyDelta(streamed, delta);
      if (next) return print(next);
      // A delta before the whole message (or after a missed one): the whole message comes again. Should
      // that fail, the end prints what the deltas did not.
      const { sessionId, messageId } = delta;
      call(app, 'chat:resend', { sessionId, messageId }).catch(() => undefined);
    }),
  ];
  return {
    /** Resolves with the answer `messageId` as it ended: complete, stopped or failed. */
    answer(messageId: number): Promise<ChatMessage> {
      assistantId = messageId;
      const message = ended.get(messageId);
      if (message && !json) print(message);
      return message ? Promise.resolve(message) : new Promise((resolve) => waiting.set(messageId, resolve));
    },
    /** Writes what the announcements did not. */
    finish(answer: ChatMessage): void {
      const text = messageText(answer);
      if (text.length > printed) write(text.slice(printed));
    },
    stop: () => stops.forEach((stop) => stop()),
  };
}

function answerReport(sessionId: string, answer: ChatMessage, direct: ChatMessage['references']) {
  const kinds = new Map<string, { path: string; title: string; kinds: ReferenceKind[] }>();
  for (const reference of [...direct, ...answer.references]) {
    const entry = kinds.get(reference.path) ?? { path: reference.path, title: reference.title, kinds: [] };
    if (!entry.kinds.includes(reference.kind)) entry.kinds.push(reference.kind);
    kinds.set(reference.path, entry);
  }
  return {
    sessionId,
    status: answer.status,
    answer: messageText(answer),
    error: answer.error,
    references: [...kinds.values()],
    citations: answer.references
      .filter((reference) => reference.kind === 'cited')
      .map((reference) => ({ number: reference.document, path: reference.path })),
    toolCalls: answer.parts.flatMap((part) =>
      part.type === 'tool-call' ? [{ name: part.name, args: part.args, ok: part.ok }] : [],
    ),
    /** The changes written to the vault (only with --allow-writes). */
    changes: answer.parts.flatMap((part) =>
      part.type === 'tool-call' && part.approval?.state === 'approved' ? [part.approval.change] : [],
    ),
    usage: answer.usage,
  };
}

/** The last request of the turn: the budget Kasten planned with and what the provider said after. */
function contextReport(request: RequestContext | undefined, compactions: number) {
  if (!request) return { context: null, requestContext: [], leftOut: [] };
  return {
    context: {
      window: request.window,
      usable: request.usable,
      estimated: request.estimated,
      reported: request.reported,
      calibration: request.calibration,
      strategy: request.strategy,
      compactions,
      parts: request.parts,
    },
    ...requestItemsReport(request),
  };
}

/** A change written to the vault as the terminal shows it: what, where, and the text itself. */
function describeWrite(change: ProposedChange): string {
  const indent = (lines: string[]) => lines.map((line) => `  ${line}`.trimEnd()).join('\n');
  if (change.kind === 'create') {
    return `Created ${change.path}:\n${indent(change.content.split(/\r\n|\r|\n/))}`;
  }
  if (change.kind === 'edit') {
    const where = change.section === null ? '' : ` in the section "${change.section}"`;
    return `Edited ${change.path}${where} (from line ${change.line}):\n${indent(diffText(change.diff).split('\n'))}`;
  }
  const where = change.heading === null ? 'at the end' : `at the end of the section "${change.heading}"`;
  const added = change.added.map((line) => `+ ${line}`);
  return `Appended to ${change.path} ${where} (from line ${change.line}):\n${indent(added)}`;
}
