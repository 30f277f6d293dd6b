import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { atMachine } from '../../src/main/hosts/dispatch';
import { messageText } from '../../src/shared/chat-domain';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { startIndexedApp } from '../support/indexed-app';
import { isRunning, stdioTestServer } from '../support/mcp-test-servers';
import { tempWorkspace, waitFor } from '../support/temp-vault';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'kasten.js');
let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer();
});
afterEach(async () => {
  await server.stop();
  workspace.remove();
});

/** `kasten <command> <vault> ...` against the scripted model, in the test's data directory. */
function commandArguments(command: string, ...extra: string[]): string[] {
  return [
    bin,
    command,
    workspace.vault,
    '--base-url',
    `${server.url}/v1`,
    '--model',
    'scripted-model',
    '--data-dir',
    workspace.dataDir,
    ...extra,
  ];
}

function askArguments(question: string, ...extra: string[]): string[] {
  return commandArguments('ask', question, ...extra);
}

describe('kasten ask / sessions', () => {
  it('prints the answer with its references, citations, tool calls and usage as JSON', async () => {
    server.script([
      { toolCalls: [{ name: 'search_notes', arguments: { query: 'links' } }] },
      { text: 'Links matter more than folders [1].' },
    ]);
    const { stdout } = await promisify(execFile)(process.execPath, [
      ...askArguments('What does [[Zettelkasten method]] say about links?', '--json'),
    ]);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({
      answer: 'Links matter more than folders [1].',
      citations: [{ number: 1, path: 'Zettelkasten method.md' }],
      toolCalls: [{ name: 'search_notes', args: { query: 'links' }, ok: true }],
      usage: { inputTokens: expect.any(Number), outputTokens: expect.any(Number) },
    });
    expect(report.references).toContainEqual({
      path: 'Zettelkasten method.md',
      title: 'Zettelkasten method',
      kinds: ['direct', 'search-hit', 'cited'],
    });

    server.script([{ text: 'Yes.' }]);
    const again = await promisify(execFile)(process.execPath, [
      ...askArguments('Anything else?', '--json', '--session', report.sessionId),
    ]);
    expect(JSON.parse(again.stdout).sessionId).toBe(report.sessionId);
    const sessions = await promisify(execFile)(process.execPath, [
      bin,
      'sessions',
      workspace.vault,
      '--json',
      '--data-dir',
      workspace.dataDir,
    ]);
    expect(JSON.parse(sessions.stdout)).toEqual([
      expect.objectContaining({ id: report.sessionId, messageCount: 4 }),
    ]);
  });

  it('streams the answer as text and exits 1 with the reason when the model fails', async () => {
    server.script(() => ({ fault: 'status', status: 401, body: { error: { message: 'bad key' } } }));
    const failed = await promisify(execFile)(process.execPath, askArguments('Hello?')).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/rejected the API key \(401\): bad key/),
    });
  });

  it('loses neither the question nor the streamed text when the process is killed mid-answer', async () => {
    server.script([{ text: 'Saved words arrive slowly. '.repeat(200), chunkSize: 4, delayMs: 10 }]);
    const child = spawn(process.execPath, askArguments('Tell me everything.'), { stdio: 'pipe' });
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    await waitFor(() => printed.length > 400, 20_000, 'streamed text');
    // Streamed text is saved at least every half second; wait past one save, then kill without warning.
    await new Promise((resolve) => setTimeout(resolve, 700));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    const app = await startIndexedApp(workspace.dataDir, workspace.vault);
    try {
      const [session] = app.chat.list();
      const { messages } = app.chat.session(session!.id);
      expect(messageText(messages[0]!)).toBe('Tell me everything.');
      expect(messages[1]!.status).toBe('interrupted');
      expect(messageText(messages[1]!)).toMatch(/^(Saved words arrive slowly\. )+/);
      expect(messageText(messages[1]!).length).toBeGreaterThan(300);
    } finally {
      await app.dispose();
    }
  });
});

describe('kasten summarize', () => {
  function summarize(...extra: string[]) {
    return promisify(execFile)(process.execPath, commandArguments('summarize', ...extra));
  }

  it('summarizes every note once; a second run costs no model call', async () => {
    server.script(() => ({ text: 'A short summary.' }));
    const first = await summarize();
    expect(first.stderr).toContain(
      '3 notes have no summary from scripted-model yet. That is 3 model calls: about ',
    );
    expect(first.stderr).toContain('a server on this machine: no charge');
    expect(first.stdout).toMatch(/^Summarized 3 notes \(0 cached\) in [\d.]+ s/);
    expect(server.chatRequests).toHaveLength(3);

    const second = JSON.parse((await summarize('--json')).stdout);
    expect(second).toMatchObject({ notes: 3, summarized: 0, cached: 3, failed: 0 });
    expect(server.chatRequests).toHaveLength(3);
  });

  it('past 200 notes says what it would take and sends nothing without --yes', async () => {
    mkdirSync(join(workspace.vault, 'log'));
    for (let day = 1; day <= 201; day++) {
      writeFileSync(join(workspace.vault, 'log', `Day ${day}.md`), `Rained on day ${day}.\n`);
    }
    server.script(() => ({ text: 'A short summary.' }));
    const refused = await summarize().catch((error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stderr: string }).stderr).toMatch(
      /204 notes have no summary from scripted-model yet\. That is 204 model calls: about [\d,]+ tokens sent and up to 20,400 written;[^\n]*\nNothing was sent\. To start, run it again with --yes\./,
    );
    expect(server.chatRequests).toHaveLength(0);

    const started = JSON.parse((await summarize('--yes', '--json')).stdout);
    expect(started).toMatchObject({ notes: 204, summarized: 204, failed: 0 });
    expect(server.chatRequests).toHaveLength(204);
  });

  it('exits 1 and says why when the model fails', async () => {
    server.script(() => ({ fault: 'status', status: 401 }));
    const failed = await summarize().catch((error: { code: number; stdout: string }) => error);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stdout: string }).stdout).toMatch(/3 failed: .*\.md: .*(key|401)/i);
  });
});

describe('a stdio MCP server when the host exits', () => {
  it('ends with the kasten CLI, with what it started, when a second SIGTERM makes the CLI exit at once', async () => {
    const setup = await startIndexedApp(workspace.dataDir, workspace.vault);
    await setup.handlers['mcp:configure']({ servers: [stdioTestServer('kit')] }, atMachine);
    await setup.dispose();
    server.script((_request, index) =>
      index === 0
        ? { toolCalls: [{ name: 'mcp__kit__orphans', arguments: { dir: workspace.base } }] }
        : { text: 'and then '.repeat(100_000), chunkSize: 9, delayMs: 2 },
    );
    const cli = spawn(process.execPath, askArguments('Start the orphans.'), {
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    const exited = once(cli, 'exit');
    const pidFiles = ['grouped', 'escaped'].map((name) => join(workspace.base, `${name}.pid`));
    await waitFor(
      () => server.chatRequests.length >= 2 || cli.exitCode !== null,
      30_000,
      'the second request',
    );
    const pids = pidFiles.map((file) => (existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0));
    expect(pids.every((pid) => pid > 0 && isRunning(pid))).toBe(true);

    cli.kill('SIGTERM');
    cli.kill('SIGTERM');
    await exited;

    await waitFor(() => !pids.some(isRunning), 5_000, 'the orphans gone');
    expect(pids.filter(isRunning)).toEqual([]);
  }, 60_000);
});
