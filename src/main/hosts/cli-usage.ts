import { version } from '../version';
import { embeddingFlagUsage } from './cli-arguments';
import { chatCommandUsage } from './cli-chat-commands';
import { embeddingCommandUsage } from './cli-embedding-commands';
import { exportCommandUsage } from './cli-export-command';
import { mcpCommandUsage } from './cli-mcp-commands';
import { undoCommandUsage } from './cli-undo-command';
import { vaultCommandUsage } from './cli-vault-commands';

// Every command's usage, for `kasten --help` and after a usage error: loaded only to be printed.

export const usage = `Kasten ${version} — chat with your Markdown vault.

Usage:
  kasten serve [--vault PATH] [--port N] [--data-dir DIR]   run the browser host on 127.0.0.1
       [--provider P] [--base-url URL] [--model NAME] [--api-key-env NAME]   (model for this run)
       [--no-summaries]                                     no model summaries of notes as they are used
  kasten info [--data-dir DIR] [--json]                     version, platform and data directory
${vaultCommandUsage}
${embeddingCommandUsage}
${embeddingFlagUsage}
${chatCommandUsage}
${exportCommandUsage}
${undoCommandUsage}
${mcpCommandUsage}
  kasten --help                                             this text

Every command accepts --data-dir DIR. Paths printed are relative to the vault, with "/".
Data directory: --data-dir, else $KASTEN_DATA_DIR unless empty, else the platform's app-data folder.
API keys are read from the variable given with --api-key-env (--embed-key-env for the embedding
model), for the server of that run, or from one confirmed for its server in the desktop app.
Exit codes: 0 success, 1 failure, 2 wrong usage.`;
