import { call, type CliHandlers } from './cli-call';

export const exportCommandUsage = `  kasten export <vault> --session ID [--out PATH] [--update] [--json]
                                                            a chat as a note (default Kasten chats/)`;

export interface ExportCommandArguments {
  vault: string;
  sessionId: string;
  /** A note path (ending in .md) or a folder, in the vault. */
  out?: string;
  update: boolean;
  json: boolean;
}

/** What the command needs of the app. */
export interface ExportCliApp extends CliHandlers {
  dispose(): Promise<void>;
}

/** `kasten export`: writes the chat to a note in the vault and prints where. */
export async function runExportCommand(
  args: ExportCommandArguments,
  open: (vault: string) => Promise<ExportCliApp>,
  stdout: (text: string) => void,
): Promise<number> {
  const app = await open(args.vault);
  try {
    const note = args.out?.endsWith('.md') ? args.out : undefined;
    const folder = note === undefined ? args.out : undefined;
    const exported = await call(app, 'sessions:export', {
      id: args.sessionId,
      folder,
      path: note,
      update: args.update,
    });
    stdout(
      args.json
        ? JSON.stringify(exported, null, 2)
        : `${exported.updated ? 'Updated' : 'Exported the chat to'} ${exported.path}`,
    );
    return 0;
  } finally {
    await app.dispose();
  }
}
