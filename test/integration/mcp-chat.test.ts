import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { ChatMessage, ToolCallPart } from '../../src/shared/chat-domain';
import { atMachine } from '../../src/main/hosts/dispatch';
import { startIndexedApp } from '../support/indexed-app';
import { stdioTestServer } from '../support/mcp-test-servers';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer();
  app = await startIndexedApp(workspace.dataDir, workspace.vault, {
    model: { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted-model' },
  });
});
afterEach(async () => {
  await app.dispose();
  await server.stop();
  workspace.remove();
});

async function ask(text: string, sessionId?: string): Promise<ChatMessage> {
  return (await app.chat.send({ text, sessionId })).done;
}

const calls = (answer: ChatMessage) =>
  answer.parts.filter((part): part is ToolCallPart => part.type === 'tool-call');
const offered = (index: number) =>
  (server.chatRequests[index]!.tools ?? []).map(
    (tool) => (tool as { function: { name: string } }).function.name,
  );

describe('an MCP server in a chat', () => {
  it('is started for the answer, its tool offered and called, the result shown wrapped as untrusted data', async () => {
    await app.handlers['mcp:configure']({ servers: [stdioTestServer('kit')] }, atMachine);
    server.script([
      { toolCalls: [{ name: 'mcp__kit__echo', arguments: { text: 'hello from the model' } }] },
      { text: 'The server said hello.' },
    ]);
    const answer = await ask('Use the echo tool.');
    expect(answer.status, answer.error ?? '').toBe('complete');
    expect(offered(0)).toEqual(expect.arrayContaining(['mcp__kit__echo', 'search_notes']));
    const [call] = calls(answer);
    expect(call).toMatchObject({ name: 'mcp__kit__echo', ok: true });
    expect(call!.output).toContain('hello from the model');
    expect(call!.output).toMatch(/<tool-output source="mcp:kit\/echo" trust="untrusted">/);
    // The result went back to the model as it was shown, and the tool's schema was counted.
    expect(JSON.stringify(server.chatRequests[1]!.messages)).toContain('hello from the model');
    const tool = answer.requests[0]!.items.find((item) => item.label === 'mcp__kit__echo');
    expect(tool).toMatchObject({ kind: 'tools', include: 'always' });
    expect(tool!.tokens).toBeGreaterThan(10);
    const statuses = (await app.handlers['mcp:servers'](undefined)).statuses;
    expect(statuses).toMatchObject([{ id: 'kit', state: 'ready' }]);
  });

  it('killed in the middle of a call leaves a usable chat: the call fails in words, the next answer has a notice', async () => {
    await app.handlers['mcp:configure']({ servers: [stdioTestServer('kit')] }, atMachine);
    server.script([
      { toolCalls: [{ name: 'mcp__kit__exit_now', arguments: {} }] },
      { text: 'It went away.' },
    ]);
    const answer = await ask('Call the tool that exits.');
    expect(answer.status, answer.error ?? '').toBe('complete');
    const [call] = calls(answer);
    expect(call).toMatchObject({ name: 'mcp__kit__exit_now', ok: false });
    expect(call!.output).toMatch(/kit/);
    expect(call!.output).toMatch(/exit|stopped|crash/i);

    server.script([{ text: 'Still here.' }]);
    const next = await ask('Are you still there?', answer.sessionId);
    expect(next.status).toBe('complete');
    expect(next.requests[0]!.notices.join(' ')).toMatch(/MCP server “kit”/);
    expect(offered(server.chatRequests.length - 1)).not.toContain('mcp__kit__echo');
    expect(offered(server.chatRequests.length - 1)).toContain('search_notes');
  });

  it('a server that never answers initialize does not hold the chat longer than the start timeout', async () => {
    await app.handlers['mcp:configure'](
      { servers: [stdioTestServer('mute', ['--no-initialize'])] },
      atMachine,
    );
    server.script([{ text: 'Answered without it.' }]);
    const answer = await ask('Hello?');
    expect(answer.status).toBe('complete');
    expect(answer.requests[0]!.notices.join(' ')).toMatch(/MCP server “mute”/);
  }, 30_000);

  it('tools set to manual are offered only in chats they were added to; agent ones only for matching messages', async () => {
    const config = {
      ...stdioTestServer('kit'),
      include: 'manual' as const,
      tools: { add: 'agent' as const },
    };
    await app.handlers['mcp:configure']({ servers: [config] }, atMachine);
    server.script(() => ({ text: 'Fine.' }));
    const first = await ask('Hello.');
    expect(offered(0)).not.toContain('mcp__kit__echo');
    expect(offered(0)).not.toContain('mcp__kit__add');
    await app.handlers['items:set']({
      sessionId: first.sessionId,
      kind: 'tool',
      key: 'mcp__kit__echo',
      on: true,
    });
    const second = await ask('Please add two numbers together for me.', first.sessionId);
    expect(offered(1)).toContain('mcp__kit__echo');
    expect(offered(1)).toContain('mcp__kit__add');
    const add = second.requests[0]!.items.find((item) => item.label === 'mcp__kit__add')!;
    expect(add).toMatchObject({ include: 'agent' });
    expect(add.score).toBeGreaterThan(0);
  });
});
