import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/main/hosts/cli';

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    rendererDir: '/nonexistent',
    resourcesDir: '/nonexistent',
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    untilStopped: async () => undefined,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('kasten CLI', () => {
  it('prints help with every command', async () => {
    const { code, out } = await run('--help');
    expect(code).toBe(0);
    expect(out).toContain('kasten serve');
    expect(out).toContain('kasten info');
  });

  it('reports the data directory given by --data-dir', async () => {
    const { code, out } = await run('info', '--json', '--data-dir', '/tmp/kasten-cli-test');
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ name: 'Kasten', dataDir: '/tmp/kasten-cli-test' });
  });

  it('exits 2 with usage for an unknown command or flag', async () => {
    expect(await run('frobnicate')).toMatchObject({
      code: 2,
      err: expect.stringContaining('Unknown command "frobnicate"'),
    });
    expect((await run('info', '--bogus')).code).toBe(2);
    expect((await run('serve', '--port', 'abc')).code).toBe(2);
  });

  it('exits 1 with a clear message when --vault is not a folder', async () => {
    const { code, err } = await run(
      'serve',
      '--vault',
      '/definitely/not/here',
      '--data-dir',
      '/tmp/kasten-cli-test',
    );
    expect(code).toBe(1);
    expect(err).toContain('is not a folder');
  });
});
