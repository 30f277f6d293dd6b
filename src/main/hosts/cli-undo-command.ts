import type { UndoOutcome } from '../../shared/chat-domain';
import { CliUsageError } from './cli-arguments';
import { call, type CliHandlers } from './cli-call';

export const undoCommandUsage = `  kasten undo <vault> --session ID [--json]                 takes back what a chat wrote (newest first)`;

export interface UndoCommandArguments {
  vault: string;
  sessionId: string;
  json: boolean;
}

/** What the command needs of the app. */
export interface UndoCliApp extends CliHandlers {
  dispose(): Promise<void>;
}

/** `kasten undo`'s arguments from the command line: the vault and --session. */
export function undoArguments(
  rest: string[],
  values: { session?: string; json?: boolean },
): UndoCommandArguments {
  const [vault, extra] = rest;
  if (vault === undefined) throw new CliUsageError('kasten undo needs the vault folder.');
  if (extra !== undefined) throw new CliUsageError(`Unexpected argument "${extra}".`);
  if (values.session === undefined) throw new CliUsageError('kasten undo needs --session ID.');
  return { vault, sessionId: values.session, json: values.json === true };
}

/**
 * `kasten undo`: every change the chat made that is not undone yet (approved write calls and exports),
 * newest first, each note given back its previous bytes while it is as Kasten left it. Prints what
 * became of each; fails (exit 1) when one could not be undone.
 */
export async function runUndoCommand(
  args: UndoCommandArguments,
  open: (vault: string) => Promise<UndoCliApp>,
  stdout: (text: string) => void,
): Promise<number> {
  const app = await open(args.vault);
  try {
    const outcomes = await call(app, 'writes:undo', { sessionId: args.sessionId });
    stdout(args.json ? JSON.stringify(outcomes, null, 2) : described(outcomes));
    return outcomes.every((outcome) => outcome.undone) ? 0 : 1;
  } finally {
    await app.dispose();
  }
}

function described(outcomes: UndoOutcome[]): string {
  if (outcomes.length === 0) return 'Nothing to undo: this chat changed no note that is not undone yet.';
  return outcomes.map((outcome) => outcome.message).join('\n');
}
