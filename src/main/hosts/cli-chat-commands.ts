import {
  messageText,
  type ChatMessage,
  type ModelSettings,
  type ProposedChange,
  type ReferenceKind,
} from '../../shared/chat-domain';
import type { ContextStatus, ContextStrategy, RequestContext } from '../../shared/context-domain';
import { applyDelta } from '../../shared/chat/message-delta';
import type { KastenApp } from '../app';
import { describeSummaryEstimate } from '../../shared/summary-estimate-text';
import { describeSummaryReport } from '../summaries/summary-queue';
import { openCliApp } from './cli-app';
import { call } from './cli-call';
import {
  askItems,
  itemFlagUsage,
  requestItemsReport,
  runRulesCommand,
  type AskItemFlags,
} from './cli-items-commands';

export interface ChatCommandEnvironment {
  dataDir: string;
  resourcesDir: string;
  indexWorker?: string;
  stdout: (text: string) => void;
  /** Streamed answer text, written without a line break. */
  write: (text: string) => void;
  stderr: (text: string) => void;
  /** Resolves on Ctrl+C: the answer is stopped and what arrived is kept. */
  untilStopped: () => Promise<void>;
}

export interface ChatCommandArguments {
  command: 'ask' | 'sessions' | 'summarize' | 'context' | 'compact' | 'rules';
  vault: string;
  question?: string;
  sessionId?: string;
  json: boolean;
  model: Partial<ModelSettings>;
  /** This run's strategy instead of the session's (`--strategy`). */
  strategy?: ContextStrategy;
  /** What `compact` should keep in the summary (`--focus`). */
  focus?: string;
  /** `ask --allow-writes`: the model may create and append to notes, written without asking. */
  allowWrites?: boolean;
  /** `ask --pin`, `--attach`, `--rule`. */
  items?: AskItemFlags;
  /** `summarize --yes`: start even past `summariesWithoutAsking` notes, the estimate having been said. */
  yes?: boolean;
}

export const chatCommandUsage = `  kasten ask <vault> "question" [--session ID] [--json]     ask the vault; the answer streams, then its references
       [--provider ollama|openai-compatible|anthropic] [--base-url URL] [--model NAME] [--api-key-env NAME]
       [--summary-model NAME]                               the model that writes summaries (default: the chat model)
       [--strategy discard|summarize|hybrid] [--window N]   how this run fits the model's window
       [--allow-writes]                                     let the model create and append to notes (printed)
${itemFlagUsage}
  kasten context <vault> --session ID [--json]              what the session's next request would hold
  kasten compact <vault> --session ID [--focus TEXT] [--json]   summarize the session's older messages
  kasten sessions <vault> [--json]                          the vault's chat sessions
  kasten summarize <vault> [--yes] [--json] [model flags]   summarize notes that have no summary for their content:
                                                            says what it would take first; past 200 notes, starts
                                                            only with --yes`;

/** `kasten ask`, `kasten sessions` and `kasten summarize`: the chat services run from a terminal. */
export async function runChatCommand(
  args: ChatCommandArguments,
  env: ChatCommandEnvironment,
): Promise<number> {
  const app = await openCliApp(args.vault, env, args.model, { contextStrategy: args.strategy });
  try {
    if (args.command === 'context') {
      const status = await call(app, 'context:status', { sessionId: args.sessionId });
      env.stdout(args.json ? JSON.stringify(status, null, 2) : describeStatus(status));
      return 0;
    }
    if (args.command === 'compact') {
      const { compaction, notice } = await call(app, 'context:compact', {
        sessionId: args.sessionId,
        focus: args.focus,
      });
      if (args.json) env.stdout(JSON.stringify({ compaction, notice }, null, 2));
      else if (compaction) {
        env.stdout(
          `Summarized ${compaction.coveredIds.length} messages (${compaction.replacedTokens} tokens) in ${compaction.tokens} tokens:\n\n${compaction.text}`,
        );
      }
      if (notice) env.stderr(`kasten: ${notice}`);
      return compaction ? 0 : 1;
    }
    if (args.command === 'sessions') {
      const sessions = await call(app, 'sessions:list', undefined);
      env.stdout(
        args.json
          ? JSON.stringify(sessions, null, 2)
          : sessions
              .map((session) => `${session.id}  ${session.updatedAt.slice(0, 16)}  ${session.title}`)
              .join('\n') || 'No chat sessions in this vault yet.',
      );
      return 0;
    }
    if (args.command === 'summarize') return await summarize(app, args, env);
    if (args.command === 'rules') return await runRulesCommand(app, args.json, env.stdout);
    const items = await askItems(app, args.items ?? { pins: [], attachments: [], rules: [] });
    let printed = 0;
    let assistantId = -1;
    // The answer as announced: a whole message, then deltas applied to it.
    let streamed: ChatMessage | null = null;
    const print = (message: ChatMessage) => {
      streamed = message;
      const text = messageText(message);
      if (text.length > printed) env.write(text.slice(printed));
      printed = Math.max(printed, text.length);
    };
    const stopMessages = app.events.on('chat:message', (message) => {
      if (!args.json && message.id === assistantId) print(message);
    });
    const stopDeltas = app.events.on('chat:delta', (delta) => {
      if (args.json || delta.messageId !== assistantId) return;
      const next = streamed && applyDelta(streamed, delta);
      // A delta before the whole message (or after a missed one): the whole message comes again.
      if (!next) return app.chat.resend(delta.sessionId, delta.messageId);
      print(next);
    });
    const unsubscribe = () => {
      stopMessages();
      stopDeltas();
    };
    // Nobody is there to approve a change: with --allow-writes each is written, and printed, at once.
    const turn = await app.chat.send(
      { sessionId: args.sessionId, text: args.question ?? '', ...items },
      args.allowWrites ? 'automatic' : 'refused',
    );
    assistantId = turn.assistantMessage.id;
    void env.untilStopped().then(() => app.chat.stop(turn.session.id));
    const answer = await turn.done;
    unsubscribe();
    const session = app.chat.session(turn.session.id);
    const user = session.messages.find((message) => message.id === turn.userMessage?.id);
    const report = {
      ...answerReport(session.id, answer, user?.references ?? []),
      ...contextReport(answer.requests.at(-1), session.compactions.length),
    };
    if (args.json) env.stdout(JSON.stringify(report, null, 2));
    else {
      const text = messageText(answer);
      if (text.length > printed) env.write(text.slice(printed));
      env.stdout('');
      for (const change of report.changes) env.stdout(`\n${describeWrite(change)}`);
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
  } finally {
    await app.dispose();
  }
}

/**
 * Says what summarizing the vault would take, then summarizes what is not cached yet, with progress on
 * stderr (past 200 notes only with --yes); Ctrl+C keeps what is done.
 */
async function summarize(app: KastenApp, args: ChatCommandArguments, env: ChatCommandEnvironment) {
  let shown = 0;
  const unsubscribe = app.events.on('summaries:progress', ({ done, total }) => {
    if (args.json) return;
    // About twenty lines for a large vault, one per note for a small one.
    if (total > 0 && done < total && done - shown >= Math.max(1, total / 20)) {
      shown = done;
      env.stderr(`Summarizing: ${done} of ${total}`);
    }
  });
  const estimate = await call(app, 'summaries:estimate', undefined);
  env.stderr(describeSummaryEstimate(estimate));
  if (estimate.needsConfirmation && args.yes !== true) {
    env.stderr(`Nothing was sent. To start, run it again with --yes.`);
    return 1;
  }
  void env.untilStopped().then(() => call(app, 'summaries:cancel', undefined));
  const report = await call(app, 'summaries:run', { confirmed: args.yes === true });
  unsubscribe();
  env.stdout(args.json ? JSON.stringify(report, null, 2) : describeSummaryReport(report));
  return report.failed > 0 || report.cancelled ? 1 : 0;
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
  const where = change.heading === null ? 'at the end' : `at the end of the section "${change.heading}"`;
  const added = change.added.map((line) => `+ ${line}`);
  return `Appended to ${change.path} ${where} (from line ${change.line}):\n${indent(added)}`;
}

function describeStatus(status: ContextStatus): string {
  const share = (tokens: number) => `${Math.round((tokens / Math.max(1, status.usable)) * 100)}%`;
  const lines = [
    `${status.model}: ${status.estimated} of ${status.usable} usable tokens (window ${status.window}), strategy ${status.strategy}`,
    ...status.parts.map(
      (part) => `  ${part.part.padEnd(13)} ${String(part.tokens).padStart(8)}  ${share(part.tokens)}`,
    ),
    `Last reported by the server: ${status.reported ?? 'nothing yet'}`,
    status.calibration.samples > 0
      ? `Calibration: x${status.calibration.ratio.toFixed(3)} from ${status.calibration.answers} answer${status.calibration.answers === 1 ? '' : 's'}`
      : 'Calibration: none yet (local count)',
    `Compactions: ${status.compactions}`,
  ];
  return lines.join('\n');
}
