import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { ChatMessage, ToolCallPart } from '../../src/shared/chat-domain';
import { atMachine } from '../../src/main/hosts/dispatch';
import { startScriptedApp } from '../support/indexed-app';
import { stdioTestServer } from '../support/mcp-test-servers';
import { startScriptedMcpServer } from '../support/scripted-mcp-http-server';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer();
  app = await startScriptedApp(workspace, server.url);
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

  it('a server that never answers initialize is given up at the start timeout and the chat answers without it', async () => {
    await app.handlers['mcp:configure'](
      { servers: [stdioTestServer('mute', ['--no-initialize'])] },
      atMachine,
    );
    server.script([{ text: 'Answered without it.' }]);
    const answer = await ask('Hello?');
    expect(answer.status).toBe('complete');
    expect(answer.requests[0]!.notices).toContain(
      'MCP server “mute” did not start: did not answer within 10 s; the chat goes on without its tools.',
    );
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

  it('40 MCP tools in every request of an 8k window: the answer comes, the tools that do not fit are left out and named', async () => {
    const property = (index: number) => [
      `field_${index}`,
      { type: 'string', description: `The ${index}th field of the record, as the archive spells it.` },
    ];
    const schema = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 8 }, (_, i) => property(i))),
    };
    const big = await startScriptedMcpServer('big', {
      tools: () =>
        Array.from({ length: 40 }, (_, index) => ({
          name: `lookup_${index}`,
          description: `Looks up records of kind ${index} in the archive and returns them as a table.`,
          inputSchema: schema,
        })),
    });
    try {
      await app.dispose();
      app = await startScriptedApp(workspace, server.url, 8192);
      await app.handlers['mcp:configure']({ servers: [big.config] });
      server.script([{ text: 'Answered within the window.' }]);

      const answer = await ask('Hello.');

      expect(answer.status, answer.error ?? '').toBe('complete');
      const [request] = answer.requests;
      const sentTools = offered(0).filter((name) => name.startsWith('mcp__big__'));
      const leftOut = request!.dropped.filter((item) => item.kind === 'tools');
      expect(sentTools.length).toBeLessThan(40);
      expect(sentTools.length + leftOut.length).toBe(40);
      expect(leftOut[0]).toMatchObject({ include: 'always', reason: expect.stringMatching(/^over budget/) });
      expect(request!.notices.join(' ')).toContain(
        `Left out of this request for lack of room: ${leftOut.length} tools (${leftOut[0]!.label}`,
      );
      expect(offered(0)).toContain('search_notes');
      expect(request!.estimated).toBeLessThanOrEqual(request!.usable);
    } finally {
      await big.stop();
    }
  });
});
