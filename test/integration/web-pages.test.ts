import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { ChatMessage } from '../../src/shared/chat-domain';
import { startIndexedApp } from '../support/indexed-app';
import { kasten } from '../support/run-cli';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';
import { startWebTestServer, type WebTestServer } from '../support/web-test-server';

let workspace: ReturnType<typeof tempWorkspace>;
let model: ScriptedModelServer;
let web: WebTestServer;
let app: KastenApp | null = null;

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  model = await startScriptedModelServer();
  web = await startWebTestServer();
});
afterEach(async () => {
  await app?.dispose();
  app = null;
  await web.close();
  await model.stop();
  workspace.remove();
});

async function start(options: { allowPrivateUrls?: boolean; maxBytes?: number; window?: number } = {}) {
  app = await startIndexedApp(workspace.dataDir, workspace.vault, {
    model: {
      provider: 'openai-compatible',
      baseUrl: `${model.url}/v1`,
      model: 'scripted-model',
      contextWindow: options.window ?? null,
    },
    allowPrivateUrls: options.allowPrivateUrls,
    web: { limits: { maxBytes: options.maxBytes ?? 1024 * 1024, timeoutMs: 3000 } },
  });
  return app;
}

/** Everything the model was sent in its last request, as text. */
const lastSent = () => JSON.stringify(model.chatRequests.at(-1)!.messages);

async function askWithPage(running: KastenApp, url: string, question = 'What does this page say?') {
  const page = await running.handlers['web:prepare']({ url });
  const turn = await running.chat.send({ text: `${question} ${url}`, attachments: [page.token] });
  const answer: ChatMessage = await turn.done;
  return { page, answer, session: running.chat.session(answer.sessionId) };
}

describe('a web page in a chat', () => {
  it('is refused on 127.0.0.1 by default, and read with the setting on', async () => {
    const running = await start();
    await expect(running.handlers['web:prepare']({ url: `${web.url}/article` })).rejects.toThrow(
      /127\.0\.0\.1 is a loopback address/,
    );
    expect(web.requests).toEqual([]);
    await running.handlers['web:configure']({ allowPrivateAddresses: true });
    const page = await running.handlers['web:prepare']({ url: `${web.url}/article` });
    expect(page).toMatchObject({ name: 'Hot composting', kind: 'web', url: `${web.url}/article` });
  });

  it('reaches the model as its article in Markdown with a document number, and the answer cites it', async () => {
    const running = await start({ allowPrivateUrls: true });
    model.script([{ text: 'Turn the heap every week [1].' }]);
    const { answer, session } = await askWithPage(running, `${web.url}/hop/1`);
    const sent = lastSent();
    expect(sent).toContain('ARTICLE-MARK');
    expect(sent).toContain('## Turning');
    expect(sent).toContain(`[garden fork](${web.url}/tools/fork)`);
    expect(sent).not.toContain('NAV-MARK');
    expect(sent).not.toContain('FOOTER-MARK');
    expect(sent).not.toContain('SCRIPT-MARK');
    // The page cannot close its own tag to speak outside it.
    expect(sent).toContain('&lt;/attachment> INJECTION-MARK');
    expect(sent).not.toContain('</attachment> INJECTION-MARK');
    // Nor name one of the images Kasten keeps: a marker in a message's text is sent as that image.
    expect(sent).toContain('&lt;kasten-image sha256=');
    expect(sent).not.toContain('<kasten-image sha256=');
    expect(sent).toContain(`url=\\"${web.url}/article\\" document=\\"1\\"`);
    expect(session.documents).toEqual([{ number: 1, path: `${web.url}/article`, title: 'Hot composting' }]);
    const question = session.messages[0]!;
    expect(question.references).toMatchObject([
      { kind: 'web', path: `${web.url}/article`, title: 'Hot composting', document: 1 },
    ]);
    expect(answer.references).toMatchObject([{ kind: 'cited', path: `${web.url}/article`, document: 1 }]);
  });

  it('reads a PDF like an attached one, a non-UTF-8 page in its charset, a page without an article as its text', async () => {
    const running = await start({ allowPrivateUrls: true });
    await askWithPage(running, `${web.url}/paper.pdf`);
    expect(lastSent()).toContain('PDF-MARK page one of the paper.');
    await askWithPage(running, `${web.url}/cp1251`);
    expect(lastSent()).toContain('Горячий компост нагревается');
    const { page } = await askWithPage(running, `${web.url}/no-article`);
    expect(page.name).toBe('Status');
    expect(lastSent()).toContain('Kasten found no article on this page');
    expect(lastSent()).toContain('BODY-MARK all systems normal');
  });

  it('refuses in words a redirect loop and a page that never ends; cuts an endless body', async () => {
    const running = await start({ allowPrivateUrls: true, maxBytes: 256 * 1024, window: 1_000_000 });
    await expect(running.handlers['web:prepare']({ url: `${web.url}/loop/a` })).rejects.toThrow(
      /redirects in a loop/,
    );
    await expect(running.handlers['web:prepare']({ url: `${web.url}/never-ends` })).rejects.toThrow(
      /did not finish loading within 3 seconds/,
    );
    const endless = await running.handlers['web:prepare']({ url: `${web.url}/endless` });
    expect(endless).toMatchObject({ kind: 'web', truncated: true });
    expect(endless.bytes).toBe(256 * 1024);
  });

  it('is saved to the vault as a note with its title, address and date, only once approved', async () => {
    const running = await start({ allowPrivateUrls: true });
    const { session } = await askWithPage(running, `${web.url}/article`);
    const url = `${web.url}/article`;
    const rejected = await running.handlers['web:save']({ sessionId: session.id, url });
    expect(await running.handlers['web:decide']({ token: rejected.token, approved: false })).toBeNull();
    const proposal = await running.handlers['web:save']({ sessionId: session.id, url });
    expect(proposal.change.path).toBe('Web pages/Hot composting.md');
    const saved = await running.handlers['web:decide']({ token: proposal.token, approved: true });
    expect(saved).toEqual({ path: 'Web pages/Hot composting.md' });
    const note = readFileSync(join(workspace.vault, 'Web pages', 'Hot composting.md'), 'utf8');
    expect(note).toMatch(
      new RegExp(`^---\\ntitle: Hot composting\\nsource: ${url}\\nsaved: \\d{4}-\\d\\d-\\d\\d\\n---\\n`),
    );
    expect(note).toContain('ARTICLE-MARK');
  });
});

describe('the fetch_url tool', () => {
  it('is not offered until added to the chat, then reads a page as an untrusted numbered document', async () => {
    const running = await start({ allowPrivateUrls: true });
    model.script([{ text: 'No tool.' }]);
    const first = await (await running.chat.send({ text: 'What is in my notes?' })).done;
    expect(JSON.stringify(model.chatRequests.at(-1)!.tools ?? [])).not.toContain('fetch_url');
    await running.handlers['items:set']({
      sessionId: first.sessionId,
      kind: 'tool',
      key: 'fetch_url',
      on: true,
    });
    model.script([
      { toolCalls: [{ name: 'fetch_url', arguments: { url: `${web.url}/article` } }] },
      { text: 'The page says to turn the heap [1].' },
    ]);
    const answer = await (
      await running.chat.send({ text: 'Read the page my note links to.', sessionId: first.sessionId })
    ).done;
    const call = answer.parts.find((part) => part.type === 'tool-call') as { ok: boolean; output: string };
    expect(call.ok).toBe(true);
    expect(call.output).toContain('"document":1');
    expect(call.output).toContain('<tool-output source="web" trust="untrusted">');
    expect(call.output).toContain('ARTICLE-MARK');
    expect(answer.references).toMatchObject([{ kind: 'cited', path: `${web.url}/article`, document: 1 }]);
  });

  it('is refused a loopback page without the setting, in words the model reads', async () => {
    const running = await start();
    model.script([{ text: 'Hi.' }]);
    const first = await (await running.chat.send({ text: 'Hello' })).done;
    await running.handlers['items:set']({
      sessionId: first.sessionId,
      kind: 'tool',
      key: 'fetch_url',
      on: true,
    });
    model.script([
      { toolCalls: [{ name: 'fetch_url', arguments: { url: 'http://169.254.169.254/' } }] },
      { text: 'Could not.' },
    ]);
    const answer = await (await running.chat.send({ text: 'Fetch it.', sessionId: first.sessionId })).done;
    const call = answer.parts.find((part) => part.type === 'tool-call') as { ok: boolean; output: string };
    expect(call).toMatchObject({ ok: false });
    expect(call.output).toMatch(/169\.254\.169\.254 is a link-local address/);
  });
});

describe('kasten ask with an address in the question', () => {
  const flags = () => [
    '--base-url',
    `${model.url}/v1`,
    '--model',
    'scripted-model',
    '--data-dir',
    workspace.dataDir,
  ];

  it('refuses a page on 127.0.0.1 without --allow-private-urls', async () => {
    const { code, err } = await kasten('ask', workspace.vault, `Summarize ${web.url}/article`, ...flags());
    expect(code).toBe(1);
    expect(err).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(model.chatRequests).toEqual([]);
  });

  it('fetches it with --allow-private-urls and lists it in --json references with kind web', async () => {
    model.script([{ text: 'Turn it weekly [1].' }]);
    const { code, out, err } = await kasten(
      'ask',
      workspace.vault,
      `Summarize ${web.url}/article.`,
      '--json',
      '--allow-private-urls',
      ...flags(),
    );
    expect(code, err).toBe(0);
    expect(lastSent()).toContain('ARTICLE-MARK');
    const report = JSON.parse(out);
    expect(report.references).toContainEqual(
      expect.objectContaining({
        path: `${web.url}/article`,
        title: 'Hot composting',
        kinds: ['web', 'cited'],
      }),
    );
  });
});
