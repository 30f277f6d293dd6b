import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { runVaultCommand } from '../../src/main/hosts/cli-vault-commands';
import { builtIndexWorker } from '../support/built-worker';
import { kasten } from '../support/run-cli';
import { writeSyntheticVault } from '../support/synthetic-vault';
import { resourcesDir, tempWorkspace } from '../support/temp-vault';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function sample() {
  const ws = tempWorkspace();
  cleanups.push(ws.remove);
  cpSync(join(resourcesDir, 'sample-vault'), ws.vault, { recursive: true });
  return ws;
}

describe('kasten index / links / search / backlinks', () => {
  it('with a profile asked for, says where the index pass spent its time, a line a phase', async () => {
    const ws = sample();
    const run = async (json: boolean) => {
      const out: string[] = [];
      const args = { command: 'index' as const, vault: ws.vault, json, broken: false, limit: 10 };
      const code = await runVaultCommand(
        { ...args, profile: true },
        {
          dataDir: join(ws.dataDir, String(json)),
          resourcesDir,
          indexWorker: builtIndexWorker,
          stdout: (text) => out.push(text),
          stderr: () => {},
        },
      );
      expect(code).toBe(0);
      return out.join('\n');
    };
    const text = await run(false);
    expect(text).toMatch(/^13 notes, /);
    expect(text).toContain('Where the time went:');
    for (const phase of [
      'reading notes',
      'parsing notes',
      'resolving and writing links',
      'writing the full-text index',
      'building lookup indexes',
      'waiting for parsed notes',
    ])
      expect(text).toMatch(new RegExp(`\\n  ${phase}.* \\d+ ms`));
    const { profile } = JSON.parse(await run(true));
    expect(Object.keys(profile).sort()).toEqual(
      [
        'commits',
        'fts',
        'indexes',
        'links',
        'notes',
        'other',
        'parse',
        'parseOnMain',
        'read',
        'settle',
      ].sort(),
    );
    expect(Object.values(profile).every((ms) => Number.isInteger(ms) && (ms as number) >= 0)).toBe(true);
  });

  it('parses notes on the main thread beside the worker pool while it has nothing to write', async () => {
    const ws = sample();
    writeSyntheticVault(join(ws.vault, 'many'), { notes: 400, seed: 3 });
    const out: string[] = [];
    const code = await runVaultCommand(
      { command: 'index', vault: ws.vault, json: true, broken: false, limit: 10, profile: true },
      {
        dataDir: ws.dataDir,
        resourcesDir,
        indexWorker: builtIndexWorker,
        stdout: (text) => out.push(text),
        stderr: () => {},
      },
    );
    expect(code).toBe(0);
    const { notes, profile } = JSON.parse(out.join('\n'));
    expect(notes).toBeGreaterThan(400);
    // The pool's thread takes a while to start; the main thread does not wait for it.
    expect(profile.parseOnMain).toBeGreaterThan(0);
  });

  it('prints the index counts and warnings as JSON from the installed command', async () => {
    const ws = sample();
    writeFileSync(join(ws.vault, 'broken yaml.md'), '---\ntitle: [oops\n---\nBody\n');
    const bin = join(import.meta.dirname, '..', '..', 'bin', 'kasten.js');
    const { stdout } = await promisify(execFile)(process.execPath, [
      bin,
      'index',
      ws.vault,
      '--json',
      '--data-dir',
      ws.dataDir,
    ]);
    const report = JSON.parse(stdout);
    expect(Object.keys(report).sort()).toEqual(
      ['ambiguous', 'attachments', 'broken', 'brokenSubpaths', 'links', 'ms', 'notes', 'warnings'].sort(),
    );
    expect(report).toMatchObject({ notes: 14, attachments: 1, broken: 1, ambiguous: 0, brokenSubpaths: 0 });
    expect(report.warnings).toEqual([{ path: 'broken yaml.md', message: expect.stringMatching(/YAML/) }]);
  });

  it('lists links with vault-relative paths and statuses, and only the broken ones with --broken', async () => {
    const ws = sample();
    const all = await kasten('links', ws.vault, '--json', '--data-dir', ws.dataDir);
    expect(all.code).toBe(0);
    const links = JSON.parse(all.out) as Record<string, unknown>[];
    expect(links.length).toBeGreaterThan(20);
    expect(Object.keys(links[0]!).sort()).toEqual(
      ['column', 'embed', 'line', 'raw', 'resolved', 'source', 'status', 'subpath', 'target'].sort(),
    );
    expect(links).toContainEqual(
      expect.objectContaining({
        source: 'concepts/Structure notes.md',
        raw: '![[Atomic notes#Why atomic]]',
        embed: true,
        target: 'Atomic notes',
        subpath: 'Why atomic',
        resolved: 'concepts/Atomic notes.md',
        status: 'resolved',
      }),
    );
    const broken = JSON.parse(
      (await kasten('links', ws.vault, '--broken', '--json', '--data-dir', ws.dataDir)).out,
    );
    expect(broken).toEqual([
      expect.objectContaining({ raw: '[[Commonplace book]]', resolved: null, status: 'broken' }),
    ]);
  });

  it('searches with a limit, and lists backlinks of a note given by name', async () => {
    const ws = sample();
    const search = await kasten(
      'search',
      ws.vault,
      'slip box',
      '--limit',
      '3',
      '--json',
      '--data-dir',
      ws.dataDir,
    );
    expect(search.code).toBe(0);
    const hits = JSON.parse(search.out) as { path: string; title: string; score: number; snippet: string }[];
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThanOrEqual(3);
    expect(hits[0]).toMatchObject({ path: 'Zettelkasten method.md', snippet: expect.stringContaining('**') });

    const text = await kasten('backlinks', ws.vault, 'Niklas Luhmann', '--data-dir', ws.dataDir);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^Zettelkasten method\.md:\d+ {2}.*Luhmann/m);
  });

  it('prints the notes holding only some of the words under their own heading, and marks them in JSON', async () => {
    const ws = sample();
    const question = 'how do I link two notes together?';
    const text = await kasten('search', ws.vault, question, '--limit', '3', '--data-dir', ws.dataDir);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(
      /^Also matching some words:\n\nLinks between notes — concepts\/Links between notes\.md/,
    );
    const json = await kasten(
      'search',
      ws.vault,
      question,
      '--limit',
      '3',
      '--json',
      '--data-dir',
      ws.dataDir,
    );
    const hits = JSON.parse(json.out) as { path: string; ranker: string }[];
    expect(hits[0]).toMatchObject({ path: 'concepts/Links between notes.md', ranker: 'some-words' });
  });

  it('refuses an empty --data-dir as wrong usage instead of using the default folder', async () => {
    const ws = sample();
    for (const argv of [
      ['index', ws.vault, '--data-dir', ''],
      ['index', ws.vault, '--data-dir='],
      ['info', '--data-dir', '  '],
    ]) {
      const run = await kasten(...argv);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.err, argv.join(' ')).toMatch(/^kasten: --data-dir needs a folder, not an empty value\./);
      expect(run.out).toBe('');
    }
  });

  it('refuses a path that is not a folder with a clear message', async () => {
    const ws = sample();
    const file = await kasten('index', join(ws.vault, 'Welcome to Kasten.md'), '--data-dir', ws.dataDir);
    expect(file).toMatchObject({ code: 1, err: expect.stringContaining('is not a folder') });
    const none = await kasten('links', join(ws.vault, 'nope'), '--data-dir', ws.dataDir);
    expect(none).toMatchObject({ code: 1, err: expect.stringContaining('There is no folder') });
    expect((await kasten('search', ws.vault)).code).toBe(2);
  });

  it('indexes a note it may not read by name, warns about it and a locked folder, and reads it once allowed', async (context) => {
    const ws = sample();
    writeFileSync(join(ws.vault, 'Private.md'), '# Secret plans\n');
    writeFileSync(join(ws.vault, 'Mentions.md'), 'See [[Private]].\n');
    mkdirSync(join(ws.vault, 'locked'));
    writeFileSync(join(ws.vault, 'locked', 'Inside.md'), '# Inside\n');
    chmodSync(join(ws.vault, 'Private.md'), 0o000);
    chmodSync(join(ws.vault, 'locked'), 0o000);
    cleanups.unshift(() => chmodSync(join(ws.vault, 'locked'), 0o755));
    // Root reads anything; without the capabilities that let it, it is refused like any user.
    const asUser =
      process.getuid?.() === 0 ? ['setpriv', '--bounding-set', '-dac_override,-dac_read_search'] : [];
    const [program, ...probe] = [...asUser, 'cat', join(ws.vault, 'Private.md')];
    const refused = spawnSync(program!, probe, { stdio: 'ignore' }).status !== 0;
    context.skip(!refused, 'this machine cannot take away the right to read a file (root without setpriv)');

    const bin = join(import.meta.dirname, '..', '..', 'bin', 'kasten.js');
    const run = async (...args: string[]) => {
      const command = [...asUser, process.execPath, bin, ...args, '--json', '--data-dir', ws.dataDir];
      return JSON.parse((await promisify(execFile)(command[0]!, command.slice(1))).stdout);
    };
    const report = (await run('index', ws.vault)) as {
      notes: number;
      warnings: { path: string; message: string }[];
    };
    // The sample vault's 13 notes, Mentions and Private (by name); locked/ could not be listed.
    expect(report.notes).toBe(15);
    expect(report.warnings).toEqual(
      expect.arrayContaining([
        { path: 'Private.md', message: 'Cannot be read: permission denied.' },
        { path: 'locked', message: 'Skipped: cannot be read (permission denied).' },
      ]),
    );
    expect(JSON.stringify(report)).not.toContain(ws.base);
    const links = (await run('links', ws.vault)) as { source: string; resolved: string | null }[];
    expect(links.find((link) => link.source === 'Mentions.md')).toMatchObject({
      resolved: 'Private.md',
      status: 'resolved',
    });

    // Allowed again (a permission change leaves its time as it was): the next open reads it.
    chmodSync(join(ws.vault, 'Private.md'), 0o644);
    const again = (await run('index', ws.vault)) as { warnings: { path: string }[] };
    expect(again.warnings.map((warning) => warning.path)).toEqual(['locked']);
    const [first] = (await run('search', ws.vault, 'secret plans')) as { path: string; title: string }[];
    expect(first).toMatchObject({ path: 'Private.md', title: 'Secret plans' });
  });
});
