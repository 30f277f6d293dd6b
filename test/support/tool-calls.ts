import type { KastenApp } from '../../src/main/app';
import type { ToolVault } from '../../src/main/chat/note-locator';
import { builtInTools } from '../../src/main/tools/built-in-tools';
import {
  ToolRegistry,
  type DocumentNumbers,
  type ToolContext,
  type ToolOutcome,
} from '../../src/main/tools/tool-registry';

/** A context for one call outside an answer: writes refused, no files or MCP servers unless given. */
export function toolContext(overrides: Partial<ToolContext> = {}): ToolContext {
  const fails = () => Promise.reject(new Error('Nothing may be written here.'));
  return {
    sessionId: 'session',
    vault: unusedVault,
    numbers: () => 1,
    writes: {
      mode: 'refused',
      allowed: () => false,
      allowedInChat: () => false,
      writer: { prepareCreate: fails, prepareAppend: fails, prepareEdit: fails },
      decide: async () => false,
      record: () => {},
    },
    attachments: null,
    mcp: null,
    call: { type: 'tool-call', step: 0, id: 'call', name: '', args: {}, ok: null, output: null },
    shown: () => {},
    signal: new AbortController().signal,
    ...overrides,
  };
}

const unusedVault: ToolVault = new Proxy({} as ToolVault, {
  get: () => {
    throw new Error('This call was given no vault.');
  },
});

/** Runs one call of a built-in tool as an answer would, through the registry. */
export function runBuiltInTool(
  vault: ToolVault,
  numbers: DocumentNumbers,
  name: string,
  args: unknown,
): Promise<ToolOutcome> {
  return new ToolRegistry(builtInTools).run(name, args, null, toolContext({ vault, numbers }));
}

/** Runs one call of a built-in tool on the app's vault, documents numbered as they first come. */
export function runAppTool(app: KastenApp, name: string, args: unknown): Promise<ToolOutcome> {
  const vault: ToolVault = {
    readNote: app.vault.readNote.bind(app.vault),
    index: app.index,
    search: app.embeddings.search,
    related: app.embeddings.related,
    summary: () => '',
  };
  const numbers = new Map<string, number>();
  const number = (path: string) => numbers.get(path) ?? numbers.set(path, numbers.size + 1).get(path)!;
  return runBuiltInTool(vault, number, name, args);
}
