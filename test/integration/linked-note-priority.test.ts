import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { ChatMessage } from '../../src/shared/chat-domain';
import type { RequestContext } from '../../src/shared/context-domain';
import { countingServer, isSummaryRequest, type CountingLog } from '../support/counting-model';
import { startIndexedApp } from '../support/indexed-app';
import { prose, turnOf } from '../support/long-chat';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

const window = 8_192;
/** A summary a compaction accepts: structured, and citing no note the conversation did not have. */
const summary = [
  '## Goal',
  'Understand how links relate notes.',
  '## Decisions',
  'None.',
  '## Facts',
  'Links relate notes better than folders do.',
  '## Open questions',
  'None.',
  '## Next steps',
  'Keep asking.',
].join('\n');
let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  // About 13.7 KB: several times what one item may take of an 8k window.
  const body = `OPENING-MARK ${prose('Field', 2_200)} CLOSING-MARK`;
  writeFileSync(join(workspace.vault, 'Field report.md'), `# Field report\n\n${body}\n`);
  server = await startScriptedModelServer({ models: [{ id: 'scripted-model', contextLength: window }] });
  const log: CountingLog = { events: [] };
  server.script(
    countingServer(
      window,
      (request) =>
        isSummaryRequest(request)
          ? { text: summary }
          : { text: `Answer ${turnOf(request)}: ${prose('Reply', 200)}` },
      log,
    ),
  );
  app = await startIndexedApp(workspace.dataDir, workspace.vault, {
    model: { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted-model' },
    compactionTimeoutMs: 5_000,
  });
});
afterEach(async () => {
  await app.dispose();
  await server.stop();
  workspace.remove();
});

async function ask(text: string, sessionId?: string): Promise<ChatMessage> {
  const answer = await (await app.chat.send({ text, sessionId })).done;
  expect(answer.status, answer.error ?? '').toBe('complete');
  return answer;
}

/** The messages a request gave word for word, as history. */
const historyIds = (request: RequestContext) =>
  request.items.filter((item) => item.kind === 'history').flatMap((item) => item.messageIds ?? []);

describe('a big note linked late in a long chat', () => {
  it.each([
    // Ten turns stay under hybrid's threshold without the note; with it, they are past it.
    { strategy: 'hybrid' as const, turns: 10 },
    // Fourteen turns fit the window whole without the note; with it, they do not.
    { strategy: 'discard' as const, turns: 14 },
  ])(
    '$strategy: reaches the model cut to its head and tail, with why in the request context, as older turns give way',
    async ({ strategy, turns }) => {
      let sessionId: string | undefined;
      let before: ChatMessage | null = null;
      for (let turn = 1; turn <= turns; turn++) {
        before = await ask(`Question ${turn}: how do links relate notes?`, sessionId);
        sessionId = before.sessionId;
        if (turn === 1) await app.handlers['context:strategy']({ sessionId, strategy });
      }
      const firstQuestion = app.chat.session(sessionId!).messages[0]!.id;
      // Before the note, the whole conversation fits: the first question is still sent word for word.
      expect(historyIds(before!.requests[0]!)).toContain(firstQuestion);

      const text = `Question ${turns + 1}: what does [[Field report]] say about links?`;
      const answer = await ask(text, sessionId);
      const stored = app.chat.session(sessionId!);
      const request = stored.messages.find((message) => message.id === answer.id)!.requests[0]!;
      expect(request.strategy).toBe(strategy);
      const note = request.items.find((item) => item.path === 'Field report.md')!;
      expect(note).toMatchObject({ kind: 'reference', include: 'direct', form: 'cut' });
      const [, whole, available] = /^cut to head and tail: ([\d,]+) tokens, ([\d,]+) available/.exec(
        note.reason ?? '',
      )!;
      const figure = (text: string | undefined) => Number(text!.replaceAll(',', ''));
      expect(figure(whole)).toBeGreaterThan(1.5 * figure(available));
      // The note took the most one item may: 30% of the usable window.
      expect(Math.abs(figure(available) - request.usable * 0.3)).toBeLessThan(5);
      expect(note.tokens).toBeGreaterThan(figure(available) * 0.85);

      // The model was given its opening and its close, and how to read the rest.
      const sent = JSON.stringify(lastChatRequest());
      expect(sent).toMatch(
        /OPENING-MARK.*tokens omitted; call read_note with \\"Field report.md\\".*CLOSING-MARK/,
      );
      // Older turns made the room: the first question is no longer sent word for word…
      expect(historyIds(request)).not.toContain(firstQuestion);
      const summary = request.items.find((item) => item.kind === 'summary');
      if (strategy === 'hybrid') {
        // …a summary stands for it…
        expect(summary?.messageIds).toContain(firstQuestion);
        expect(stored.compactions).toHaveLength(1);
      } else {
        // …or it is left out.
        expect(summary).toBeUndefined();
        expect(stored.compactions).toHaveLength(0);
      }
      expect(request.estimated).toBeLessThanOrEqual(request.usable);

      // The question keeps what was sent: the reference's cost is the request's, and the next question
      // gives the cut note again exactly as it was.
      const question = stored.messages.find((message) => message.id === answer.id - 1)!;
      expect(question.references[0]).toMatchObject({
        path: 'Field report.md',
        mode: 'inline',
        tokens: note.tokens,
      });
      const context = question.parts.find((part) => part.type === 'context');
      const given = context?.type === 'context' ? context.text : '';
      expect(given).toContain('tokens omitted');
      await ask(`Question ${turns + 2}: and about folders?`, sessionId);
      expect(JSON.stringify(lastChatRequest())).toContain(JSON.stringify(given).slice(1, -1));
    },
  );
});

const lastChatRequest = () => server.chatRequests.filter((entry) => !isSummaryRequest(entry)).at(-1)!;
