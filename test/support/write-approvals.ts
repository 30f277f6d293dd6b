import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { KastenApp } from '../../src/main/app';
import type { ChatMessage, ToolCallPart } from '../../src/shared/chat-domain';
import { startIndexedApp } from './indexed-app';

export function toolCalls(message: ChatMessage): ToolCallPart[] {
  return message.parts.filter((part): part is ToolCallPart => part.type === 'tool-call');
}

/**
 * Resolves with the first change an answer shows for approval (other than the call `after`): the
 * message as announced and the call waiting. Subscribe before sending, since the event may come first.
 */
export function nextPending(
  app: KastenApp,
  after?: string,
): Promise<{ message: ChatMessage; call: ToolCallPart }> {
  return new Promise((resolve) => {
    const off = app.events.subscribe((channel, payload) => {
      if (channel !== 'chat:message') return;
      const message = payload as ChatMessage;
      const call = toolCalls(message).find((part) => part.approval?.state === 'pending' && part.id !== after);
      if (!call) return;
      off();
      resolve({ message, call });
    });
  });
}

/** Every entry below `root` (symlinks as where they point, not followed) with a hash of each file's bytes. */
export function snapshot(root: string, prefix = ''): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const entry of readdirSync(join(root, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    const absolute = join(root, path);
    if (entry.isSymbolicLink()) entries[path] = `symlink to ${readlinkSync(absolute)}`;
    else if (entry.isDirectory()) Object.assign(entries, { [path]: 'folder' }, snapshot(root, path));
    else entries[path] = createHash('sha256').update(readFileSync(absolute)).digest('hex');
  }
  return entries;
}

/**
 * The app on a workspace's vault with the scripted model, write calls decided by the user in the chat
 * (as in the desktop app and the browser host), and writes allowed in the vault.
 */
export async function startWritingApp(
  workspace: { dataDir: string; vault: string },
  server: { url: string },
): Promise<KastenApp> {
  const app = await startIndexedApp(workspace.dataDir, workspace.vault, {
    model: { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted-model' },
    writes: 'ask',
  });
  await app.handlers['writes:configure']({ enabled: true });
  return app;
}
