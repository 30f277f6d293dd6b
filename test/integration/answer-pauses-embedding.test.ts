import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { EmbeddingProgress } from '../../src/shared/embedding-domain';
import { startScriptedApp } from '../support/indexed-app';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace, waitFor } from '../support/temp-vault';

// Chat searches with the embedding services, so they learn that an answer runs from the event bus
// (`chat:answering`) rather than by asking chat: this is the app's wiring of that, end to end.
let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer();
  app = await startScriptedApp(workspace, server.url);
  await app.handlers['embeddings:configure']({
    enabled: true,
    provider: 'openai-compatible',
    baseUrl: `${server.url}/v1`,
    model: 'scripted-embedder',
    apiKeyEnv: null,
  });
});

afterEach(async () => {
  await app.dispose();
  await server.stop();
  workspace.remove();
});

describe('embedding the vault on the chat model’s server', () => {
  it('waits while an answer streams there, sending no passage, and embeds the vault once the answer is stopped', async () => {
    server.script([{ text: 'and then '.repeat(100_000), chunkSize: 9, delayMs: 2 }]);
    const states: EmbeddingProgress['state'][] = [];
    app.events.on('embeddings:progress', ({ state }) => states.push(state));
    const turn = await app.handlers['chat:send']({ text: 'Tell me everything.' });
    const asked = server.embeddingInputs().length;

    const run = app.handlers['embeddings:run'](undefined);
    await waitFor(() => states.includes('paused'), 10_000, 'the embedding run to pause');
    expect(server.embeddingInputs()).toHaveLength(asked);

    await app.handlers['chat:stop']({ sessionId: turn.session.id });
    const report = await run;
    expect(report).toMatchObject({ error: null, cancelled: false });
    expect(report.embedded).toBeGreaterThan(0);
    expect(server.embeddingInputs().length).toBeGreaterThan(asked);
    expect(states.slice(states.indexOf('paused'))).toContain('running');
  });
});
