import { describe, expect, it } from 'vitest';
import {
  configOf,
  draftOf,
  emptyDraft,
  parseEnv,
  serverId,
} from '../../../src/renderer/src/features/mcp/mcp-server-draft';
import type { McpServerConfig } from '../../../src/shared/mcp-domain';

const existing: McpServerConfig = {
  id: 'files',
  name: 'Files',
  enabled: true,
  include: 'manual',
  tools: { read: 'always' },
  transport: 'stdio',
  command: 'node',
  args: ['server.mjs', '--root', '/tmp/a b'],
  env: { TOKEN: 'x=y' },
  cwd: '/srv',
};

describe('the MCP server form', () => {
  it('edits a stdio server as lines and gives back the same server, keeping what it does not show', () => {
    const draft = draftOf(existing);
    expect(draft.args).toBe('server.mjs\n--root\n/tmp/a b');
    expect(draft.env).toBe('TOKEN=x=y');
    expect(configOf(draft, [], existing)).toEqual({ config: existing });
  });

  it('makes a new server’s id from its name, unique among the others', () => {
    expect(serverId('My Weather!', [])).toBe('my-weather');
    expect(serverId('Files', ['files', 'files-2'])).toBe('files-3');
    expect(serverId('???', [])).toBe('server');
    const made = configOf(
      { ...emptyDraft, name: 'Files', command: 'node' },
      [{ ...existing, name: 'Old' }],
      null,
    );
    expect(made).toMatchObject({ config: { id: 'files-2', name: 'Files', args: [], env: {} } });
  });

  it('says what is wrong: no name, a taken name, no command, a bad environment line, a bad URL', () => {
    expect(configOf(emptyDraft, [], null)).toEqual({ error: 'The server needs a name.' });
    expect(configOf({ ...emptyDraft, name: 'files', command: 'x' }, [existing], null)).toEqual({
      error: 'Another server is already called “files”.',
    });
    expect(configOf({ ...emptyDraft, name: 'A' }, [], null)).toEqual({
      error: 'The command that starts the server is missing.',
    });
    expect(configOf({ ...emptyDraft, name: 'A', command: 'x', env: 'OK=1\nnot a pair' }, [], null)).toEqual({
      error: 'Line 2 of the environment is not KEY=VALUE: “not a pair”.',
    });
    expect(configOf({ ...emptyDraft, name: 'A', transport: 'http', url: 'ftp://host' }, [], null)).toEqual({
      error: 'The URL must start with http:// or https://.',
    });
    expect(
      configOf({ ...emptyDraft, name: 'A', transport: 'http', url: 'http://127.0.0.1:9/mcp' }, [], null),
    ).toMatchObject({
      config: { transport: 'http', url: 'http://127.0.0.1:9/mcp' },
    });
  });

  it('reads KEY=VALUE lines, skipping blank and # lines', () => {
    expect(parseEnv('A=1\n\n# note\nB_2= two ')).toEqual({ env: { A: '1', B_2: ' two' } });
  });
});
