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
