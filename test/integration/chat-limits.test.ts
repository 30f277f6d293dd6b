import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { toolCallCeiling, toolCallsPerStep } from '../../src/main/chat/chat-turn';
import { maxQueryWords } from '../../src/main/index/note-search';
import type { ChatMessage, ToolCallPart } from '../../src/shared/chat-domain';
import { startIndexedApp } from '../support/indexed-app';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedToolCall,
} from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer();
  app = await startApp();
});
afterEach(async () => {
  await app.dispose();
  await server.stop();
  workspace.remove();
});

function startApp(): Promise<KastenApp> {
  return startIndexedApp(workspace.dataDir, workspace.vault, {
    model: { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted-model' },
  });
}

function searches(count: number): ScriptedToolCall[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `call-${index}`,
    name: 'search_notes',
    arguments: { query: 'links' },
  }));
}

function toolCalls(message: ChatMessage): ToolCallPart[] {
  return message.parts.filter((part): part is ToolCallPart => part.type === 'tool-call');
}

describe('tool calls the model asks for are bounded', () => {
  it(
    'a step asking for 20,000 tool calls ends the answer with a clear error and a bounded message',
    { timeout: 30_000 },
    async () => {
      server.script([{ toolCalls: searches(20_000), eventsPerWrite: 400 }]);
      const events: ChatMessage[] = [];
      app.events.subscribe((channel, payload) => {
        if (channel === 'chat:message') events.push(payload as ChatMessage);
      });

      const answer = await (await app.chat.send({ text: 'Search everything.' })).done;

      expect(answer.status).toBe('error');
      expect(answer.error).toMatch(/asked for more than \d+ tool calls at once/);
      const stored = app.chat.session(answer.sessionId).messages[1]!;
      expect(stored).toMatchObject({ status: 'error', error: answer.error });
      expect(stored.parts.length).toBeLessThanOrEqual(toolCallCeiling + 1);
      // None of them ran, and the model was not asked again.
      expect(toolCalls(stored).every((call) => call.ok === false && /Not run/.test(call.output ?? ''))).toBe(
        true,
      );
      expect(server.chatRequests).toHaveLength(1);
      // The last event is the finished answer.
      expect(events.at(-1)).toMatchObject({ id: answer.id, status: 'error' });
    },
  );

  it(
    'a reply that writes tool calls for minutes is cut off while it streams',
    // The scripted reply takes over 40 s to stream in full: the answer must end long before that.
    { timeout: 15_000 },
    async () => {
      server.script([{ toolCalls: searches(200_000), eventsPerWrite: 50, delayMs: 10 }]);
      const answer = await (await app.chat.send({ text: 'Search everything, slowly.' })).done;
      expect(answer.status).toBe('error');
      expect(answer.error).toMatch(/asked for more than \d+ tool calls at once/);
      expect(server.chatRequests).toHaveLength(1);
    },
  );

  it(`a step asking for 40 tool calls runs ${toolCallsPerStep}; the model gets an error for each other one`, async () => {
    server.script([{ toolCalls: searches(40) }, { text: 'Done.' }]);

    const answer = await (await app.chat.send({ text: 'Search a lot.' })).done;

    expect(answer.status).toBe('complete');
    const calls = toolCalls(app.chat.session(answer.sessionId).messages[1]!);
    expect(calls).toHaveLength(40);
    expect(calls.slice(0, toolCallsPerStep).every((call) => call.ok === true)).toBe(true);
    for (const call of calls.slice(toolCallsPerStep)) {
      expect(call).toMatchObject({
        ok: false,
        output: expect.stringMatching(/^Not run: at most 16 tool calls are run in one step/),
      });
    }
    const results = new Map(
      server.chatRequests[1]!.messages.filter((message) => message.role === 'tool').map((message) => [
        message.tool_call_id,
        JSON.stringify(message.content),
      ]),
    );
    expect(results.size).toBe(40);
    for (let index = 0; index < 40; index++) {
      const result = results.get(`call-${index}`);
      if (index < toolCallsPerStep) expect(result).toContain('Zettelkasten method');
      else expect(result).toContain('Not run: at most 16 tool calls');
    }
  });

  it('a search_notes query of 30,000 words is answered at once with its hits, saying it was shortened', async () => {
    // Every word of the query is in one note, so all of them match: unshortened, this search took a minute.
    const words = Array.from({ length: 30_000 }, (_, index) => `word${index.toString(36)}`);
    writeFileSync(join(workspace.vault, 'Glossary.md'), `# Glossary\n\n${words.join(' ')}\n`);
    await app.dispose();
    app = await startApp();
    server.script([
      { toolCalls: [{ name: 'search_notes', arguments: { query: words.join(' ') } }], chunkSize: 4096 },
      { text: 'It is the glossary.' },
    ]);

    const answer = await (await app.chat.send({ text: 'Which note has all of these words?' })).done;

    expect(answer.status).toBe('complete');
    const [call] = toolCalls(answer);
    expect(call).toMatchObject({ ok: true });
    const [notice, ...rest] = call!.output!.split('\n');
    expect(notice).toMatch(
      new RegExp(`^The query was shortened: only its first ${maxQueryWords} different words`),
    );
    expect(notice).toContain(`"${words.slice(0, maxQueryWords).join(' ')}"`);
    expect(JSON.parse(rest.join('\n'))).toEqual([expect.objectContaining({ path: 'Glossary.md' })]);
  });
});
