import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { AppPage } from '../support/app-page';
import { sentText } from '../support/context-items-vault';
import { testServerScript } from '../support/mcp-test-servers';
import { ask, contextItemsHost } from '../support/context-items-host';
import { scriptedModelArgs, startKastenServer } from '../support/kasten-server';

const host = contextItemsHost({ rules: false });

test.use({ viewport: { width: 1280, height: 800 } });

/** `kasten mcp` on this machine, with the host's data directory: where a command may be added. */
function kastenMcp(...args: string[]): void {
  // The data directory goes first: after `--` every word is the program's.
  execFileSync(process.execPath, ['bin/kasten.js', 'mcp', '--data-dir', host.workspace.dataDir, ...args]);
}

test('MCP servers added on this machine show their tools in Settings, where the browser cannot add a command; the model calls one and the chat shows it', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(host.server.url);
  await app.statusBar.getByTestId('model-status').click();
  const settings = page.getByTestId('settings');
  const section = settings.getByRole('region', { name: 'MCP servers' });
  // The browser host offers a server at a URL, and says where a program can be added.
  await section.getByRole('button', { name: 'Add a server' }).click();
  const form = section.getByRole('form', { name: 'New MCP server' });
  await expect(form.getByRole('radio', { name: 'A program on this computer (stdio)' })).toBeDisabled();
  await expect(form.getByRole('radio', { name: 'A server at a URL (HTTP)' })).toBeChecked();
  await expect(form.getByTestId('mcp-command-locked')).toContainText('kasten mcp add');
  await form.getByRole('button', { name: 'Cancel' }).click();

  kastenMcp(
    'add',
    'test-tools',
    '--name',
    'Test tools',
    '--env',
    'GREETING=hello',
    '--',
    process.execPath,
    testServerScript,
  );
  kastenMcp('add', 'missing', '--name', 'Missing', '--', '/no/such/program');
  await host.server.stop({ keepData: true });
  host.server = await startKastenServer({
    vault: host.workspace.vault,
    dataDir: host.workspace.dataDir,
    args: scriptedModelArgs(host.model.url),
  });
  await page.goto(host.server.url);

  // A chat wants the tools, which starts the servers.
  await ask(app, 'Hello?');

  await app.statusBar.getByTestId('model-status').click();
  const card = section.getByTestId('mcp-server').filter({ hasText: 'Test tools' });
  await expect(card.getByTestId('mcp-state')).toHaveText('ready', { timeout: 20_000 });
  await expect(card.getByTestId('mcp-tool').filter({ hasText: 'echo' })).toContainText(
    'Returns the text it is given.',
  );
  await card.getByRole('combobox', { name: 'When add is offered' }).selectOption('manual');
  await expect(card.getByRole('combobox', { name: 'When add is offered' })).toHaveValue('manual');
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/context-items/settings-mcp.png' });
  // Its command is shown, not editable here.
  await card.getByRole('button', { name: 'Edit' }).click();
  const editing = section.getByRole('form', { name: 'Edit Test tools' });
  await expect(editing.getByRole('textbox', { name: 'Command' })).toBeDisabled();
  await editing.getByRole('button', { name: 'Cancel' }).click();

  // A server that cannot start says so in its card; removing one is allowed here.
  const missing = section.getByTestId('mcp-server').filter({ hasText: 'Missing' });
  await expect(missing.getByTestId('mcp-state')).toHaveText('failed', { timeout: 20_000 });
  await expect(missing.getByRole('status')).not.toBeEmpty();
  await missing.getByRole('button', { name: 'Remove' }).click();
  await missing.getByRole('button', { name: 'Remove it' }).click();
  await expect(missing).toHaveCount(0);
  await page.keyboard.press('Escape');

  await app.showTab('Context');
  const group = app.chatContext.getByTestId('tool-group').filter({ hasText: 'Test tools (MCP server)' });
  await expect(group.getByTestId('tool-item').filter({ hasText: 'echo' })).toContainText('always');
  const add = group.getByTestId('tool-item').filter({ hasText: /^add/ });
  await expect(add).toContainText('manual');
  await expect(add.getByRole('switch')).not.toBeChecked();

  host.model.script([
    { toolCalls: [{ name: 'mcp__test-tools__echo', arguments: { text: 'hello from the MCP server' } }] },
    { text: 'The server echoed it.' },
  ]);
  await app.composer.fill('Echo something.');
  await app.composer.press('Enter');
  await expect(app.chat.getByTestId('assistant-message')).toHaveCount(2);
  const answer = app.chat.getByTestId('assistant-message').last();
  await expect(answer).toHaveAttribute('data-status', 'complete');
  await expect(answer.getByTestId('tool-call')).toContainText('mcp__test-tools__echo');
  await expect(answer).toContainText('The server echoed it.');
  expect(sentText(host.model.chatRequests.at(-1)!)).toContain('hello from the MCP server');
});

test('the vault’s agent prompt saved in Settings goes into requests, and a vault tool made manual leaves them', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(host.server.url);
  await app.statusBar.getByTestId('model-status').click();
  const section = page.getByTestId('settings').getByRole('region', { name: 'Context items' });
  await section.getByRole('textbox', { name: 'Agent prompt' }).fill('AGENT-PROMPT: answer in one line.');
  await section.getByRole('combobox', { name: 'When find_related is offered' }).selectOption('manual');
  await section.getByRole('button', { name: 'Save context items' }).click();
  await expect(section.getByText('Saved.')).toBeVisible();
  await page.keyboard.press('Escape');

  await app.showTab('Context');
  await expect(app.chatContext.getByTestId('agent-prompt')).toContainText(
    'AGENT-PROMPT: answer in one line.',
  );
  const tool = app.chatContext.getByTestId('tool-item').filter({ hasText: 'find_related' });
  await expect(tool.getByRole('switch')).not.toBeChecked();

  await app.composer.fill('What is in the garden?');
  await app.composer.press('Enter');
  await expect(app.chat.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete');
  const request = host.model.chatRequests.at(-1)!;
  expect(sentText(request)).toContain('AGENT-PROMPT: answer in one line.');
  expect(JSON.stringify(request.tools)).not.toContain('find_related');
  expect(JSON.stringify(request.tools)).toContain('search_notes');

  // This chat's own prompt replaces the vault's for it.
  const prompt = app.chatContext.getByTestId('prompt-section');
  await prompt.getByRole('button', { name: 'Write one for this chat' }).click();
  await prompt
    .getByRole('textbox', { name: 'This chat’s agent prompt' })
    .fill('OWN-PROMPT: talk like a gardener.');
  await prompt.getByRole('button', { name: 'Save for this chat' }).click();
  await expect(prompt).toContainText('This chat’s own prompt');
  await app.composer.fill('And the roses?');
  await app.composer.press('Enter');
  const answers = app.chat.getByTestId('assistant-message');
  await expect(answers).toHaveCount(2);
  await expect(answers.last()).toHaveAttribute('data-status', 'complete');
  expect(sentText(host.model.chatRequests.at(-1)!)).toContain('OWN-PROMPT: talk like a gardener.');
  await prompt.getByRole('button', { name: 'Use the vault’s' }).click();
  await expect(prompt).toContainText('The vault’s prompt');
});
