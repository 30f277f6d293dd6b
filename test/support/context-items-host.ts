import { expect, test } from '@playwright/test';
import { writeRules } from './context-items-vault';
import { scriptedModelArgs, startKastenServer, type RunningServer } from './kasten-server';
import { startScriptedModelServer, type ScriptedModelServer } from './scripted-model-server';
import { tempWorkspace } from './temp-vault';

export interface ContextItemsHost {
  workspace: ReturnType<typeof tempWorkspace>;
  model: ScriptedModelServer;
  server: RunningServer;
}

/**
 * Each test of the spec gets a copy of the chat vault (with the test rules when `rules`), a scripted
 * model answering "Fine." and `kasten serve` on both; a test fails on any error thrown in the page.
 */
export function contextItemsHost({ rules = true, reply = 'Fine.' } = {}): ContextItemsHost {
  const host = {} as ContextItemsHost;
  const errors: Error[] = [];
  test.beforeEach(async ({ page }) => {
    host.workspace = tempWorkspace('chat');
    if (rules) writeRules(host.workspace.vault);
    host.model = await startScriptedModelServer();
    host.model.script(() => ({ text: reply }));
    host.server = await startKastenServer({
      vault: host.workspace.vault,
      dataDir: host.workspace.dataDir,
      args: scriptedModelArgs(host.model.url),
    });
    errors.length = 0;
    page.on('pageerror', (error) => errors.push(error));
  });
  test.afterEach(async () => {
    await host.server.stop();
    await host.model.stop();
    host.workspace.remove();
    expect(errors).toEqual([]);
  });
  return host;
}

export { askAndWait as ask } from './app-page';
