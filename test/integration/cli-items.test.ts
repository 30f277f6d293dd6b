import { execFileSync } from 'node:child_process';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kasten } from '../support/run-cli';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
const attachments = join(import.meta.dirname, '..', 'fixtures', 'attachments');

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  const rules = join(workspace.vault, '_kasten', 'rules');
  mkdirSync(rules, { recursive: true });
  writeFileSync(
    join(rules, 'Short answers.md'),
    '---\ninclude: manual\n---\nSHORT-RULE: answer in one line.\n',
  );
  writeFileSync(
    join(rules, 'Garden.md'),
    '---\ninclude: agent\ndescription: Gardening, compost and tomatoes\n---\nGARDEN-RULE\n',
  );
  writeFileSync(join(rules, 'Odd.md'), '---\ninclude: sometimes\n---\nODD-RULE\n');
  server = await startScriptedModelServer();
});
afterEach(async () => {
  await server.stop();
  workspace.remove();
});

const model = () => [
  '--base-url',
  `${server.url}/v1`,
  '--model',
  'scripted-model',
  '--data-dir',
  workspace.dataDir,
];

describe('kasten ask with context items', () => {
  it('--pin, --attach and --rule reach the model, and --json lists every item with its include mode and score', async () => {
    server.script([{ text: 'Done.' }]);
    const { code, out, err } = await kasten(
      'ask',
      workspace.vault,
      'What do my notes say about links?',
      '--json',
      '--pin',
      'Atomic notes',
      '--attach',
      join(attachments, 'two-pages.pdf'),
      '--attach',
      join(attachments, 'notes.md'),
      '--rule',
      'Short answers',
      ...model(),
    );
    expect(code, err).toBe(0);
    const report = JSON.parse(out);
    const sent = JSON.stringify(server.chatRequests.at(-1)!.messages);
    expect(sent).toContain('SHORT-RULE');
    expect(sent).toContain('kind=\\"pdf\\"');
    expect(sent).toContain('--- page 2 ---');
    expect(sent).toContain('Atomic notes');
    expect(report.requestContext).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'rule', label: 'Short answers', include: 'manual' }),
        expect.objectContaining({
          kind: 'pinned',
          path: 'Atomic notes.md',
          include: 'manual',
          form: 'whole',
        }),
        expect.objectContaining({ kind: 'attachment', label: 'two-pages.pdf', include: 'manual' }),
        expect.objectContaining({ kind: 'attachment', label: 'notes.md' }),
        expect.objectContaining({ kind: 'tools', label: 'search_notes', include: 'always' }),
      ]),
    );
    // The agent rule the question is not about is listed with its score and why it was left out.
    expect(report.leftOut).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'rule',
          label: 'Garden',
          include: 'agent',
          score: expect.any(Number),
          reason: expect.stringMatching(/score 0\.\d\d/),
        }),
      ]),
    );
  });

  it('--json says why a linked note went in smaller than whole', async () => {
    await server.stop();
    server = await startScriptedModelServer({ models: [{ id: 'scripted-model', contextLength: 4096 }] });
    server.script([{ text: 'Done.' }]);
    const paragraph = 'A long field note about how links between notes grow into a web of ideas over years. ';
    writeFileSync(join(workspace.vault, 'Field journal.md'), `# Field journal\n\n${paragraph.repeat(160)}\n`);
    const { code, out, err } = await kasten(
      'ask',
      workspace.vault,
      'What does [[Field journal]] say?',
      '--json',
      ...model(),
    );
    expect(code, err).toBe(0);
    const report = JSON.parse(out);
    const note = report.requestContext.find((item: { path?: string }) => item.path === 'Field journal.md');
    expect(note.form).not.toBe('whole');
    expect(note.reason).toMatch(/available/);
    // Items that went in whole carry no reason.
    for (const item of report.requestContext.filter((found: { form: string }) => found.form === 'whole')) {
      expect(item).not.toHaveProperty('reason');
    }
  });

  it('refuses a file it cannot read, and a note that does not exist, saying which, before asking anything', async () => {
    const scan = await kasten(
      'ask',
      workspace.vault,
      'Read it.',
      '--attach',
      join(attachments, 'scan.pdf'),
      ...model(),
    );
    expect(scan.code).toBe(1);
    expect(scan.err).toMatch(/scan\.pdf.*no text/);
    const missing = await kasten('ask', workspace.vault, 'Hm.', '--pin', 'No such note', ...model());
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/--pin: there is no note “No such note”/);
    expect(server.chatRequests).toHaveLength(0);
  });

  it('--attach refuses a FIFO, /dev/zero and a file past the limit at once instead of reading them', async () => {
    const fifo = join(workspace.base, 'pipe.txt');
    execFileSync('mkfifo', [fifo]);
    const huge = join(workspace.base, 'huge.txt');
    writeFileSync(huge, '');
    truncateSync(huge, 26 * 1024 * 1024);
    for (const [file, message] of [
      [fifo, `--attach: ${fifo} is not a regular file, so it cannot be attached.`],
      ['/dev/zero', '--attach: /dev/zero is not a regular file, so it cannot be attached.'],
      [huge, '--attach: “huge.txt” is too large: an attachment can be up to'],
    ] as const) {
      const run = await kasten('ask', workspace.vault, 'Read it.', '--attach', file, ...model());
      expect(run.code, file).toBe(1);
      expect(run.err, file).toContain(message);
    }
    expect(server.chatRequests).toHaveLength(0);
  });
});

describe('kasten rules', () => {
  it('lists the rules with their include modes, and warns of a rule whose include is not understood', async () => {
    const json = await kasten('rules', workspace.vault, '--json', '--data-dir', workspace.dataDir);
    expect(json.code).toBe(0);
    const { folder, rules } = JSON.parse(json.out);
    expect(folder).toBe('_kasten/rules');
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Short answers', include: 'manual', warning: null }),
        expect.objectContaining({
          name: 'Garden',
          include: 'agent',
          description: 'Gardening, compost and tomatoes',
        }),
        expect.objectContaining({
          name: 'Odd',
          include: 'manual',
          warning: expect.stringMatching(/sometimes/),
        }),
      ]),
    );
    const text = await kasten('rules', workspace.vault, '--data-dir', workspace.dataDir);
    expect(text.out).toMatch(/agent\s+\d+ tokens\s+Garden/);
    expect(text.out).toMatch(/⚠ include: "sometimes"/);
  });
});
