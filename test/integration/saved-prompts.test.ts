import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { ChatMessage } from '../../src/shared/chat-domain';
import type { PromptPart } from '../../src/shared/prompt-domain';
import { startIndexedApp } from '../support/indexed-app';
import { kasten } from '../support/run-cli';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp | undefined;

const prompts = '_kasten/prompts';
/** A phrase only the body of "Atomic notes" holds. */
const noteText = 'One idea per note, so that links point at exactly one thing.';

function writeNote(path: string, content: string): void {
  mkdirSync(join(workspace.vault, path, '..'), { recursive: true });
  writeFileSync(join(workspace.vault, path), content);
}

async function start({ watch = false, window }: { watch?: boolean; window?: number } = {}) {
  app = await startIndexedApp(workspace.dataDir, workspace.vault, {
    watch,
    model: {
      provider: 'openai-compatible',
      baseUrl: `${server.url}/v1`,
      model: 'scripted-model',
      contextWindow: window ?? null,
    },
  });
  return app;
}

/** Sends through the contract's handler, as every host does, and waits for the answer's end. */
async function runPrompt(input: { name: string; note?: string; selection?: string; text?: string }) {
  const ended = new Map<number, ChatMessage>();
  let wanted = -1;
  let resolve: (message: ChatMessage) => void = () => {};
  const answered = new Promise<ChatMessage>((done) => (resolve = done));
  const stop = app!.events.on('chat:message', (message) => {
    if (message.role !== 'assistant' || message.status === 'streaming') return;
    ended.set(message.id, message);
    if (message.id === wanted) resolve(message);
  });
  try {
    const turn = await app!.handlers['prompts:send'](input);
    wanted = turn.assistantMessage.id;
    const answer = ended.get(wanted) ?? (await answered);
    return { turn, answer };
  } finally {
    stop();
  }
}

function changedIndex(path: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = app!.events.on('index:changed', (change) => {
      if (!change.paths.includes(path)) return;
      stop();
      resolve();
    });
  });
}

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  writeNote(
    `${prompts}/Summarize.md`,
    '---\nname: Summarize\ndescription: A permanent note from this one\n---\n' +
      'Summarize {{note}} into a permanent note titled after {{title}}.\n',
  );
  writeNote(
    `${prompts}/Explain.md`,
    '---\ndescription: Explain the selection\n---\nExplain: {{selection}}\n',
  );
  writeNote(`${prompts}/Broken.md`, '---\nname: [Broken\n---\nText {{note}}\n');
  writeNote(`${prompts}/Odd.md`, '---\nname: Odd\n---\nWho is {{author}}?\n');
  writeNote(`${prompts}/Huge.md`, `---\nname: Huge\n---\n${'word '.repeat(210_000)}\n`);
  server = await startScriptedModelServer();
});
afterEach(async () => {
  await app?.dispose();
  app = undefined;
  await server.stop();
  workspace.remove();
});

describe('saved prompts', () => {
  it('are listed with their descriptions, whether they use {{selection}}, and bad ones with a warning', async () => {
    await start();
    const { folder, prompts: listed } = await app!.handlers['prompts:list'](undefined);
    expect(folder).toBe('_kasten/prompts');
    const byName = new Map(listed.map((prompt) => [prompt.name, prompt]));
    expect(byName.get('Summarize')).toMatchObject({
      description: 'A permanent note from this one',
      variables: ['note', 'title'],
      usesSelection: false,
      warnings: [],
      usable: true,
    });
    expect(byName.get('Explain')).toMatchObject({ usesSelection: true, usable: true });
    expect(byName.get('Broken')!.warnings[0]).toMatch(/not valid YAML/);
    expect(byName.get('Odd')!.warnings[0]).toMatch(/\{\{author\}\} is not a variable/);
    expect(byName.get('Huge')).toMatchObject({ usable: false });
    expect(byName.get('Huge')!.warnings[0]).toMatch(/at most 64 KB/);
  });

  it('with {{note}} sends the open note to the model, and the message says which prompt it came from', async () => {
    await start();
    server.script([{ text: 'A summary.' }]);
    const { turn, answer } = await runPrompt({ name: 'summarize', note: 'Atomic notes.md' });
    expect(answer.status).toBe('complete');
    const sent = JSON.stringify(server.chatRequests.at(-1)!.messages);
    expect(sent).toContain(noteText);
    expect(sent).toContain('into a permanent note titled after Atomic notes.');
    const part = turn.userMessage.parts.find((entry): entry is PromptPart => entry.type === 'prompt');
    expect(part).toMatchObject({ name: 'Summarize', path: `${prompts}/Summarize.md` });
    expect(part!.fills.map((fill) => fill.variable)).toEqual(['note', 'title']);
    expect(part!.fills[0]!.preview).toContain('One idea per note');
    // Context used: the note under the variable that brought it.
    const item = answer.requests[0]!.items.find((entry) => entry.label === '{{note}} Atomic notes');
    expect(item).toMatchObject({ kind: 'pinned', path: 'Atomic notes.md', form: 'whole' });
    // The next question of the chat still has the note, kept with the message it came with.
    server.script([{ text: 'Yes.' }]);
    await (
      await app!.chat.send({ sessionId: turn.session.id, text: 'Is it short?' })
    ).done;
    expect(JSON.stringify(server.chatRequests.at(-1)!.messages)).toContain(noteText);
  });

  it('a note too large for the pinned share goes as its passages, said in Context used', async () => {
    const long = Array.from(
      { length: 120 },
      (_, index) =>
        `## Part ${index}\n\nParagraph ${index} about ${index === 77 ? 'permanent' : 'other'} things. ${'Filler words here. '.repeat(20)}`,
    ).join('\n\n');
    writeNote('Long note.md', `# Long note\n\n${long}\n`);
    await start({ window: 8192 });
    server.script([{ text: 'Done.' }]);
    const { answer } = await runPrompt({ name: 'Summarize', note: 'Long note.md' });
    const item = answer.requests[0]!.items.find((entry) => entry.label === '{{note}} Long note');
    expect(item?.form).toBe('chunks');
    expect(item?.reason).toMatch(
      /^its passages most relevant to the question: [\d,]+ tokens, [\d,]+ available/,
    );
    expect(answer.requests[0]!.estimated).toBeLessThanOrEqual(answer.requests[0]!.usable);
  });

  it('refuses in words: a prompt on no note, a missing note, a selection past the window, an unusable prompt', async () => {
    await start({ window: 4096 });
    const send = (input: { name: string; note?: string; selection?: string }) =>
      app!.handlers['prompts:send'](input).then(
        () => 'sent',
        (error: Error) => error.message,
      );
    expect(await send({ name: 'Summarize' })).toBe(
      'The prompt “Summarize” uses {{note}}, {{title}}: open a note to run it on.',
    );
    expect(await send({ name: 'Summarize', note: 'Gone.md' })).toBe(
      'The prompt “Summarize” uses {{note}}, {{title}}, and there is no note Gone.md in the vault.',
    );
    expect(await send({ name: 'Explain', selection: 'word '.repeat(20_000) })).toMatch(
      /^The selection is about [\d,]+ tokens; this model's window \(4,096\) leaves room for [\d,]+ in one message\. Select less\.$/,
    );
    expect(await send({ name: 'Huge' })).toMatch(/^The prompt “Huge” does not run: It is \d+ KB/);
    expect(await send({ name: 'Nothing' })).toBe('There is no saved prompt “Nothing” in _kasten/prompts/.');
    expect(server.chatRequests).toHaveLength(0);
  });

  it('a prompt note edited on disk is listed and sent as edited', async () => {
    await start({ watch: true });
    const before = await app!.handlers['prompts:list'](undefined);
    expect(before.prompts.find((prompt) => prompt.name === 'Summarize')?.description).toBe(
      'A permanent note from this one',
    );
    const path = `${prompts}/Summarize.md`;
    const indexed = changedIndex(path);
    writeNote(path, '---\nname: Summarize\ndescription: Edited elsewhere\n---\nEDITED-PROMPT on {{title}}\n');
    await indexed;
    const listed = await app!.handlers['prompts:list'](undefined);
    expect(listed.prompts.find((prompt) => prompt.name === 'Summarize')?.description).toBe(
      'Edited elsewhere',
    );
    server.script([{ text: 'Fine.' }]);
    await runPrompt({ name: 'Summarize', note: 'Atomic notes.md' });
    expect(JSON.stringify(server.chatRequests.at(-1)!.messages)).toContain('EDITED-PROMPT on Atomic notes');
  });
});

describe('kasten ask --prompt', () => {
  it('runs a saved prompt on the note named by --note, and the model is sent the note', async () => {
    server.script([{ text: 'Summarized.' }]);
    const { code, out, err } = await kasten(
      'ask',
      workspace.vault,
      '--prompt',
      'Summarize',
      '--note',
      'Atomic notes',
      '--base-url',
      `${server.url}/v1`,
      '--model',
      'scripted-model',
      '--data-dir',
      workspace.dataDir,
    );
    expect(code, err).toBe(0);
    // The answer streams in chunks, each written as it comes.
    expect(out.replace(/\n/g, '')).toContain('Summarized.');
    expect(out).toContain('Atomic notes.md  (direct)');
    expect(JSON.stringify(server.chatRequests.at(-1)!.messages)).toContain(noteText);
  });

  it('with {{selection}} sends the selection given', async () => {
    server.script([{ text: 'Explained.' }]);
    const { code, err } = await kasten(
      'ask',
      workspace.vault,
      '--prompt',
      'Explain',
      '--selection',
      'SELECTED-WORDS here',
      '--base-url',
      `${server.url}/v1`,
      '--model',
      'scripted-model',
      '--data-dir',
      workspace.dataDir,
    );
    expect(code, err).toBe(0);
    expect(JSON.stringify(server.chatRequests.at(-1)!.messages)).toContain('Explain: SELECTED-WORDS here');
  });
});
