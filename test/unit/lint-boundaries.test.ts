import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function restrictedImports(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result?.messages.filter((message) => message.ruleId === 'no-restricted-imports').length ?? 0;
}

describe('process boundaries are enforced by lint', () => {
  it('keeps electron, Node built-ins and main-process code out of the renderer', async () => {
    const file = 'src/renderer/src/features/x/probe.ts';
    expect(
      await restrictedImports(file, "import { ipcRenderer } from 'electron';\nexport { ipcRenderer };"),
    ).toBe(1);
    expect(await restrictedImports(file, "import { readFile } from 'node:fs';\nexport { readFile };")).toBe(
      1,
    );
    expect(
      await restrictedImports(
        file,
        "import { createApp } from '../../../../main/app';\nexport { createApp };",
      ),
    ).toBe(1);
    expect(await restrictedImports(file, "import { kasten } from '../../api';\nexport { kasten };")).toBe(0);
  });

  it('keeps shared code free of electron and Node', async () => {
    const file = 'src/shared/probe.ts';
    expect(await restrictedImports(file, "import { app } from 'electron';\nexport { app };")).toBe(1);
    expect(await restrictedImports(file, "import { join } from 'node:path';\nexport { join };")).toBe(1);
  });

  it('lets only storage import better-sqlite3 and only llm import provider SDKs', async () => {
    const sqlite = "import Database from 'better-sqlite3';\nexport { Database };";
    expect(await restrictedImports('src/main/vault/probe.ts', sqlite)).toBe(1);
    expect(await restrictedImports('src/main/storage/probe.ts', sqlite)).toBe(0);
    const sdk = "import { streamText } from 'ai';\nexport { streamText };";
    expect(await restrictedImports('src/main/chat/probe.ts', sdk)).toBe(1);
    expect(await restrictedImports('src/main/llm/probe.ts', sdk)).toBe(0);
    const ollama = "import { createOllama } from 'ollama-ai-provider-v2';\nexport { createOllama };";
    expect(await restrictedImports('src/main/summaries/probe.ts', ollama)).toBe(1);
    expect(await restrictedImports('src/main/llm/probe.ts', ollama)).toBe(0);
  });

  it('lets only the request module count tokens: everything else asks the engine for its calibrated count', async () => {
    const tokenizer = "import { countTokens } from 'gpt-tokenizer';\nexport { countTokens };";
    const rawCount = "import { countTokens } from '../request/count/token-count';\nexport { countTokens };";
    for (const file of ['src/main/items/probe.ts', 'src/main/chat/probe.ts', 'src/main/llm/probe.ts']) {
      expect(await restrictedImports(file, tokenizer)).toBe(1);
      expect(await restrictedImports(file, rawCount)).toBe(1);
    }
    expect(await restrictedImports('src/main/request/count/probe.ts', tokenizer)).toBe(0);
    // Chunks for the embedding model are sized in its tokens, not the chat model's window.
    expect(await restrictedImports('src/main/embeddings/probe.ts', rawCount)).toBe(0);
  });
});
