import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const hosts = join(root, 'src/main/hosts');

/** The CLI's sources: its entry and every `cli*.ts` of the hosts. */
function cliSources(): { path: string; text: string }[] {
  const files = readdirSync(hosts)
    .filter((name) => /^cli.*\.ts$/.test(name))
    .map((name) => join(hosts, name));
  return [join(root, 'src/main/cli.ts'), ...files].map((path) => ({
    path: path.slice(root.length + 1),
    text: readFileSync(path, 'utf8'),
  }));
}

/** What a host may use of the app: the contract's handlers, the push events and the lifecycle. */
const hostMembers = new Set(['handlers', 'events', 'start', 'dispose']);

/** Each `app.<member>` a source reaches that is not a host's: a service called past the contract. */
function servicesReached(text: string): string[] {
  return [...text.matchAll(/\bapp\??\.(\w+)/g)]
    .map((match) => match[1]!)
    .filter((member) => !hostMembers.has(member));
}

describe('the CLI is a host like the others', () => {
  it('finds a service call past the contract when there is one', () => {
    expect(servicesReached('const links = app.index.links({ broken });')).toEqual(['index']);
    expect(
      servicesReached('await call(app, "links:list", {}); app.events.on("chat:message", print);'),
    ).toEqual([]);
  });

  it('reaches the services only through the contract’s handlers, as the desktop and browser hosts do', () => {
    const sources = cliSources();
    expect(sources.length).toBeGreaterThan(5);
    const reached = sources.flatMap(({ path, text }) =>
      servicesReached(text).map((member) => `${path}: app.${member}`),
    );
    expect(reached).toEqual([]);
  });
});
