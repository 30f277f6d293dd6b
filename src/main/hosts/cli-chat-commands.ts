import type { ModelSettings } from '../../shared/chat-domain';
import { totalCostText } from '../../shared/cost/cost-text';
import type { ContextStatus, ContextStrategy } from '../../shared/context-domain';
import { describeSummaryEstimate } from '../../shared/summary-estimate-text';
import { describeSummaryReport } from '../summaries/summary-queue';
import { openCliApp, type CliApp } from './cli-app';
import { runAsk, type SavedPromptFlags } from './cli-ask-command';
import { call } from './cli-call';
import { itemFlagUsage, runRulesCommand, type AskItemFlags } from './cli-items-commands';

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
  /** `ask --vision on|off`: whether the model sees images, for this run. */
  vision?: boolean;
  /** `ask --allow-private-urls`: this run may fetch pages on loopback and private addresses. */
  allowPrivateUrls?: boolean;
  /** `ask --pin`, `--attach`, `--rule`. */
  items?: AskItemFlags;
  /** `ask --prompt NAME [--note PATH] [--selection TEXT]`. */
  savedPrompt?: SavedPromptFlags;
  /** `summarize --yes`: start even past `summariesWithoutAsking` notes, the estimate having been said. */
  yes?: boolean;
}

export const chatCommandUsage = `  kasten ask <vault> "question" [--session ID] [--json]     ask the vault; the answer streams, then its references
       [--provider ollama|openai-compatible|anthropic] [--base-url URL] [--model NAME] [--api-key-env NAME]
       [--summary-model NAME]                               the model that writes summaries (default: the chat model)
       [--strategy discard|summarize|hybrid] [--window N]   how this run fits the model's window
       [--allow-writes]                                     let the model create and append to notes (printed)
       [--vision on|off]                                    whether the model sees images (--attach img.png)
       [--allow-private-urls]                               fetch pages the question names on loopback and
                                                            private addresses too (refused by default)
${itemFlagUsage}
  kasten ask <vault> ["more words"] --prompt NAME [--note PATH] [--selection TEXT]
                                                            run a saved prompt, on a note of the vault
  kasten context <vault> --session ID [--json]              what the session's next request would hold
  kasten compact <vault> --session ID [--focus TEXT] [--json]   summarize the session's older messages
  kasten sessions <vault> [--json]                          the vault's chat sessions, with tokens and cost
  kasten summarize <vault> [--yes] [--json] [model flags]   summarize notes that have no summary for their content:
                                                            says what it would take first; past 200 notes, starts
                                                            only with --yes`;

/** `kasten ask`, `kasten sessions` and `kasten summarize`: the chat services run from a terminal. */
export async function runChatCommand(
  args: ChatCommandArguments,
  env: ChatCommandEnvironment,
): Promise<number> {
  // Nobody is there to approve a change: with --allow-writes each is written, and printed, at once.
  const writes = args.allowWrites ? 'automatic' : 'refused';
  const app = await openCliApp(args.vault, env, args.model, {
    contextStrategy: args.strategy,
    writes,
    vision: args.vision,
    ...(args.allowPrivateUrls ? { allowPrivateUrls: true } : {}),
  });
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
              .map((session) => {
                const cost = totalCostText(session.usage);
                return `${session.id}  ${session.updatedAt.slice(0, 16)}  ${session.title}${cost ? `  (${cost})` : ''}`;
              })
              .join('\n') || 'No chat sessions in this vault yet.',
      );
      return 0;
    }
    if (args.command === 'summarize') return await summarize(app, args, env);
    if (args.command === 'rules') return await runRulesCommand(app, args.json, env.stdout);
    return await runAsk(app, args, env);
  } finally {
    await app.dispose();
  }
}

/**
 * Says what summarizing the vault would take, then summarizes what is not cached yet, with progress on
 * stderr (past 200 notes only with --yes); Ctrl+C keeps what is done.
 */
async function summarize(app: CliApp, args: ChatCommandArguments, env: ChatCommandEnvironment) {
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
