import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { systemPrompt } from '../../../src/main/request/sources/system-prompt';
import { toolCatalog } from '../../../src/main/items/tool-catalog';
import { builtInTools } from '../../../src/main/tools/built-in-tools';
import { defineTool, ToolRegistry } from '../../../src/main/tools/tool-registry';
import { toolContext } from '../../support/tool-calls';

const registry = () => new ToolRegistry(builtInTools);
const now = new Date('2026-03-04T10:00:00Z');

describe('the tool registry', () => {
  it('answers a call of a tool it does not know with a plain error for the model', async () => {
    const outcome = await registry().run('delete_vault', {}, null, toolContext());
    expect(outcome).toEqual({ ok: false, output: 'There is no tool named "delete_vault".', notes: [] });
  });

  it('answers arguments that do not fit the schema with a plain error naming the field, before the tool runs', async () => {
    const outcome = await registry().run('search_notes', { query: 'x', limit: 500 }, null, toolContext());
    expect(outcome.ok).toBe(false);
    expect(outcome.output).toMatch(/^Invalid arguments for search_notes: limit: /);
    const missing = await registry().run('read_note', {}, null, toolContext());
    expect(missing.output).toMatch(/^Invalid arguments for read_note: note: /);
  });

  it('tells a write call that writes are off before anything else about it is checked', async () => {
    const outcome = await registry().run('create_note', { path: 7 }, 'not JSON', toolContext());
    expect(outcome.output).toMatch(/^Writing to the vault is not allowed here/);
  });

  it('offers and runs a tool added to it with no other change', async () => {
    const echo = defineTool({
      name: 'echo_words',
      family: 'vault',
      description: 'Says the words back.',
      input: z.object({ words: z.string().min(1) }),
      include: 'manual',
      documents: 'listed',
      writes: false,
      guidance: 'Echo words (echo_words) when asked to.',
      async run({ words }, { sessionId }) {
        return { ok: true, output: `${sessionId}: ${words}`, notes: [] };
      },
    });
    const tools = new ToolRegistry([...builtInTools, echo]);

    const catalog = toolCatalog(tools.family('vault'), {}, [], (text) => text.length);
    expect(catalog.find(({ info }) => info.name === 'echo_words')?.info).toMatchObject({
      source: 'vault',
      include: 'manual',
      description: 'Says the words back.',
    });
    const prompt = systemPrompt({
      vaultName: 'V',
      tools: tools.inOrder(['echo_words']),
      documents: false,
      now,
    });
    expect(prompt).toContain('Echo words (echo_words) when asked to.');
    expect(prompt).toContain('"document" number');

    const outcome = await tools.run('echo_words', { words: 'hello' }, null, toolContext());
    expect(outcome).toEqual({ ok: true, output: 'session: hello', notes: [] });
  });

  it('gives each offered tool its guidance once, shared lines once, in the order the tools were registered', () => {
    const tools = registry();
    const prompt = systemPrompt({
      vaultName: 'V',
      tools: tools.inOrder(['append_to_note', 'read_attachment', 'create_note', 'search_notes']),
      documents: false,
      now,
    });
    const lines = prompt.split('\n');
    const search = lines.findIndex((line) => line.includes('(search_notes)'));
    const change = lines.findIndex((line) => line.includes('(create_note, append_to_note, edit_note)'));
    const attached = lines.findIndex((line) => line.includes('read_attachment reads one'));
    expect(lines.filter((line) => line.includes('(create_note, append_to_note, edit_note)'))).toHaveLength(1);
    expect([search, change, attached]).toEqual([...[search, change, attached]].sort((a, b) => a - b));
    expect(search).toBeGreaterThan(0);
    expect(prompt).toContain('"document" number');
  });

  it('leaves out the citation lines when no offered tool returns numbered notes', () => {
    const prompt = systemPrompt({
      vaultName: 'V',
      tools: registry().inOrder(['resolve_wikilink']),
      documents: false,
      now,
    });
    expect(prompt).not.toContain('"document" number');
  });
});

/** Every source file of the main process, with its text. */
function mainSources(dir = join(import.meta.dirname, '../../../src/main')): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return mainSources(path);
    return entry.name.endsWith('.ts') ? [{ path, text: readFileSync(path, 'utf8') }] : [];
  });
}

describe('tool names', () => {
  it('are each written as a value (a quoted string or a key) in exactly one file of the main process', () => {
    const sources = mainSources();
    const names = builtInTools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      const written = new RegExp(`(['"\`])${name}\\1|(^|[^A-Za-z0-9_])${name}\\s*:`, 'm');
      const files = sources.filter(({ text }) => written.test(text)).map(({ path }) => path);
      expect({ name, files: files.length }).toEqual({ name, files: 1 });
    }
  });
});
