import { describe, expect, it } from 'vitest';
import {
  commandFingerprint,
  confirmationsAfter,
  startableServers,
  unconfirmedCommands,
} from '../../../src/main/items/mcp-commands';
import type { McpServerConfig, McpStdioServerConfig } from '../../../src/shared/mcp-domain';

const desktop = { atMachine: true };
const browser = { atMachine: false };

function stdio(more: Partial<McpStdioServerConfig> = {}): McpStdioServerConfig {
  const base = { id: 'files', name: 'Files', enabled: true, include: 'always' as const, tools: {} };
  return { ...base, transport: 'stdio', command: 'npx', args: ['server'], env: {}, ...more };
}
const http: McpServerConfig = {
  id: 'web',
  name: 'Web',
  enabled: true,
  include: 'always',
  tools: {},
  transport: 'http',
  url: 'https://mcp.example/mcp',
};

describe('a command fingerprint', () => {
  it('changes with the command, an argument, a variable or the folder, not with the order of variables', () => {
    const plain = commandFingerprint(stdio({ env: { A: '1', B: '2' } }));
    expect(commandFingerprint(stdio({ env: { B: '2', A: '1' } }))).toBe(plain);
    for (const changed of [
      stdio({ command: 'sh', env: { A: '1', B: '2' } }),
      stdio({ args: ['server', '-x'], env: { A: '1', B: '2' } }),
      stdio({ env: { A: '1', B: '3' } }),
      stdio({ env: { A: '1', B: '2' }, cwd: '/tmp' }),
    ]) {
      expect(commandFingerprint(changed)).not.toBe(plain);
    }
  });
});

describe('confirmations of MCP commands', () => {
  it('confirms a command typed at the machine, and keeps it through switches and renames', () => {
    const added = confirmationsAfter([], [stdio()], {}, [], desktop);
    expect(unconfirmedCommands([stdio()], added)).toEqual([]);
    const switched = stdio({ enabled: false, name: 'Renamed', include: 'manual' });
    const kept = confirmationsAfter([stdio()], [switched], added, [], browser);
    expect(unconfirmedCommands([switched], kept)).toEqual([]);
  });

  it('refuses from the browser host a new command, a changed one and a confirmation', () => {
    const confirmed = confirmationsAfter([], [stdio()], {}, [], desktop);
    const refusal = expect.objectContaining({
      code: 'forbidden',
      message: expect.stringContaining('kasten mcp add'),
    });
    expect(() => confirmationsAfter([], [stdio()], {}, [], browser)).toThrow(refusal);
    expect(() => confirmationsAfter([stdio()], [stdio({ args: [] })], confirmed, [], browser)).toThrow(
      refusal,
    );
    expect(() => confirmationsAfter([stdio()], [stdio()], {}, ['files'], browser)).toThrow(refusal);
    expect(() => confirmationsAfter([stdio()], [stdio()], {}, [], undefined)).not.toThrow();
    expect(() => confirmationsAfter([http], [stdio({ id: 'web' })], {}, [], undefined)).toThrow(refusal);
  });

  it('lets the browser host add HTTP servers and remove any server', () => {
    const confirmed = confirmationsAfter([], [stdio()], {}, [], desktop);
    expect(confirmationsAfter([stdio()], [http], confirmed, [], browser)).toEqual({});
  });

  it('leaves a stored command unconfirmed at the machine until the user confirms that one', () => {
    expect(confirmationsAfter([stdio()], [stdio()], {}, [], desktop)).toEqual({});
    const confirmed = confirmationsAfter([stdio()], [stdio()], {}, ['files'], desktop);
    expect(unconfirmedCommands([stdio()], confirmed)).toEqual([]);
  });

  it('starts HTTP servers and confirmed commands only, saying why a command is left out', () => {
    const confirmed = confirmationsAfter([], [stdio()], {}, [], desktop);
    const edited = stdio({ args: ['other'] });
    const other = stdio({ id: 'old' });
    expect(startableServers([http, edited, other], confirmed)).toEqual([http]);
    expect(unconfirmedCommands([edited, other], confirmed)).toEqual([
      { id: 'files', reason: expect.stringMatching(/^Not confirmed: it changed outside Kasten since/) },
      { id: 'old', reason: expect.stringMatching(/saved before Kasten asked.*kasten mcp confirm old/) },
    ]);
  });
});
