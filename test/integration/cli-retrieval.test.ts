import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { kasten } from '../support/run-cli';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let server: ScriptedModelServer;
let ws: ReturnType<typeof tempWorkspace>;

beforeAll(async () => {
  // At 512 dimensions texts sharing no word stay apart; at 64 they can come close by chance.
  server = await startScriptedModelServer({ embeddingDimensions: 512 });
});
afterAll(() => server.stop());
afterEach(() => ws.remove());

/**
 * Zettelkasten links to Luhmann (both #method); Slip box habits shares their words but no link, so by
 * meaning or by words it is the missing link; Gardening shares nothing.
 */
function smallVault() {
  ws = tempWorkspace();
  mkdirSync(ws.vault, { recursive: true });
  const notes: Record<string, string> = {
    'Zettelkasten.md':
      '# Zettelkasten\n\nSlip box cards, small and linked, one idea each. #method\n\nSee [[Luhmann]].\n',
    'Luhmann.md': '# Luhmann\n\nNiklas Luhmann kept a slip box of linked cards for decades. #method\n',
    'Slip box habits.md': '# Slip box habits\n\nKeep slip box cards small and linked, one idea each.\n',
    'Gardening.md': '# Gardening\n\nTomatoes want sun, water and patience.\n',
  };
  for (const [path, text] of Object.entries(notes)) writeFileSync(join(ws.vault, path), text);
  return ws;
}

/** The flags that point this run's embeddings at the scripted server. */
const embedFlags = () => [
  '--embed-provider',
  'openai-compatible',
  '--embed-url',
  `${server.url}/v1`,
  '--embed-model',
  'scripted-embedder',
];

const run = (...argv: string[]) => kasten(...argv, '--data-dir', ws.dataDir);

describe('kasten embed / related / search --mode', () => {
  it('embeds a vault and prints the counts, as text and as JSON; a second run embeds nothing', async () => {
    smallVault();
    const first = await run('embed', ws.vault, ...embedFlags());
    expect(first).toMatchObject({ code: 0, err: '' });
    expect(first.out).toMatch(/^Embedded \d+ passages \(0 kept, 4 notes read again\)/);
    expect(first.out).toMatch(/passages have vectors from scripted-embedder at /);
    const sent = server.embeddingInputs().length;
    expect(sent).toBeGreaterThan(0);

    const again = await run('embed', ws.vault, '--json', ...embedFlags());
    expect(again.code).toBe(0);
    const report = JSON.parse(again.out);
    expect(report).toMatchObject({ embedded: 0, notesChunked: 0, error: null, cancelled: false });
    expect(report.status).toMatchObject({ pending: 0, unavailable: null });
    expect(report.status.embedded).toBeGreaterThanOrEqual(4);
    expect(server.embeddingInputs().length).toBe(sent);
  });

  it('lists related notes by link, backlink, tag and meaning, marking the missing link', async () => {
    smallVault();
    expect((await run('embed', ws.vault, ...embedFlags())).code).toBe(0);
    const related = await run('related', ws.vault, 'Zettelkasten', ...embedFlags());
    expect(related).toMatchObject({ code: 0, err: '' });
    // Gardening shares neither a link, a tag nor a word with it: it is not related.
    const [linked, similar, ...others] = related.out.split('\n');
    expect(linked).toBe('Luhmann — Luhmann.md  (linked from here; shares #method)');
    expect(similar).toMatch(
      /^Slip box habits — Slip box habits\.md {2}\(similar: 0\.\d\d\) {2}\[not linked\]$/,
    );
    expect(others).toEqual([]);

    const json = JSON.parse((await run('related', ws.vault, 'Luhmann.md', '--json', ...embedFlags())).out);
    expect(json).toMatchObject({ note: 'Luhmann.md', semantic: null });
    expect(json.notes).toContainEqual(
      expect.objectContaining({ path: 'Zettelkasten.md', reasons: expect.arrayContaining(['links here']) }),
    );
  });

  it('finds related notes by shared words without embeddings, and says nothing on stderr', async () => {
    smallVault();
    const related = await run('related', ws.vault, 'Zettelkasten', '--limit', '5');
    expect(related).toMatchObject({ code: 0, err: '' });
    expect(related.out).toMatch(
      /^Slip box habits — Slip box habits\.md {2}\(similar words: [^)]*slip[^)]*\) {2}\[not linked\]$/m,
    );
    expect(related.out).not.toContain('similar: 0.');
    expect(related.out).not.toContain('Gardening');
  });

  it('marks a translation by its folder rather than as a link that is missing', async () => {
    ws = tempWorkspace('translations');
    const related = await run('related', ws.vault, 'en/Embed files.md');
    expect(related).toMatchObject({ code: 0, err: '' });
    expect(related.out).toMatch(
      /^Embed files — ko\/Embed files\.md {2}\(similar words: [^)]*\) {2}\[same name, in ko\/\]$/m,
    );
    expect(related.out).toMatch(
      /^Link to files — en\/Link to files\.md {2}\(similar words: [^)]*\) {2}\[not linked\]$/m,
    );
    expect(related.out.match(/\[not linked\]/g)).toHaveLength(1);
  });

  it('answers a semantic search without embeddings by words, and says so and why on stderr', async () => {
    smallVault();
    const search = await run('search', ws.vault, 'slip box', '--mode', 'semantic');
    expect(search.code).toBe(0);
    expect(search.out).toMatch(/^Slip box habits — Slip box habits\.md/m);
    expect(search.err).toMatch(
      /^kasten: lexical only, because no embedding model is configured; .*--embed-model/,
    );
    expect(search.err.split('\n')).toHaveLength(1);

    // Embeddings given but nothing embedded yet: hybrid by default, answered by words, with the remedy.
    const hybrid = await run('search', ws.vault, 'slip box', '--json', ...embedFlags());
    expect(JSON.parse(hybrid.out)[0]).toMatchObject({ ranker: 'all-words' });
    expect(hybrid.err).toMatch(
      /lexical only, because the notes have not been embedded yet; run `kasten embed`/,
    );
  });

  it('marks the hits found by meaning once the vault is embedded, and searches both ways by default', async () => {
    smallVault();
    await run('embed', ws.vault, ...embedFlags());
    const semantic = await run(
      'search',
      ws.vault,
      'tomatoes in the sun',
      '--mode',
      'semantic',
      ...embedFlags(),
    );
    expect(semantic).toMatchObject({ code: 0, err: '' });
    expect(semantic.out).toMatch(/^Similar in meaning:\n\nGardening — Gardening\.md \(0\.\d\d\)/);

    // Hybrid, the default with embeddings: the semantic half answered, so nothing is said on stderr.
    const hybrid = await run('search', ws.vault, 'tomatoes', '--json', ...embedFlags());
    expect(hybrid).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(hybrid.out)[0]).toMatchObject({ path: 'Gardening.md' });
  });

  it("gives `ask` the run's embedding model for the model's searches", async () => {
    smallVault();
    const chat = ['--base-url', `${server.url}/v1`, '--model', 'scripted-model'];
    const searchTool = async () => {
      server.script([
        { toolCalls: [{ name: 'search_notes', arguments: { query: 'tomatoes' } }] },
        { text: 'They want sun [1].' },
      ]);
      const ask = await run('ask', ws.vault, 'What do tomatoes want?', '--json', ...chat, ...embedFlags());
      expect(ask.code).toBe(0);
      const result = server.chatRequests.at(-1)!.messages.find((message) => message.role === 'tool');
      return String(result?.content);
    };
    // Without the flags embeddings would be off, and the tool would not mention them at all.
    expect(await searchTool()).toContain(
      'Searched by words only, because the notes have not been embedded yet',
    );
    await run('embed', ws.vault, ...embedFlags());
    const embedded = await searchTool();
    expect(embedded).toContain('Gardening.md');
    expect(embedded).not.toContain('Searched by words only');
  });

  it('refuses bad embedding and mode flags with exit code 2', async () => {
    smallVault();
    const cases = [
      [['search', ws.vault, 'x', '--mode', 'fuzzy'], /--mode must be lexical, semantic, hybrid/],
      [['embed', ws.vault, '--embed-provider', 'anthropic'], /--embed-provider must be ollama or openai/],
      [['related', ws.vault, 'Luhmann', '--embed-url', 'ftp://x'], /--embed-url must be an http/],
      [['ask', ws.vault, 'hi', '--embed-key-env', 'NOT-A-NAME'], /--embed-key-env must name/],
      [['embed', ws.vault, '--embed-model', ' '], /--embed-model needs/],
      [['related', ws.vault], /kasten related needs a note/],
    ] as const;
    for (const [argv, message] of cases) {
      const result = await run(...argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.err).toMatch(message);
    }
  });

  it('says how to turn embeddings on when `embed` runs without them', async () => {
    smallVault();
    const off = await run('embed', ws.vault);
    expect(off.code).toBe(1);
    expect(off.err).toMatch(/^kasten: Embeddings are off: give one for this run with --embed-model NAME/);
  });

  it('exits 1 naming the server when the embedding server cannot be reached (installed command)', async () => {
    smallVault();
    const bin = join(import.meta.dirname, '..', '..', 'bin', 'kasten.js');
    // A port that was free a moment ago: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = `http://127.0.0.1:${port}/v1`;
    const failed = await promisify(execFile)(process.execPath, [
      bin,
      'embed',
      ws.vault,
      '--embed-provider',
      'openai-compatible',
      '--embed-url',
      unreachable,
      '--embed-model',
      'scripted-embedder',
      '--data-dir',
      ws.dataDir,
    ]).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(
      new RegExp(`^kasten: Cannot reach the embedding server at ${unreachable}`, 'm'),
    );
  });
});
