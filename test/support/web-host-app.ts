import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp, type AppOptions, type KastenApp } from '../../src/main/app';
import { startWebHost, type WebHost } from '../../src/main/hosts/web';

/**
 * The app as `kasten serve` builds it on a workspace, started, behind the browser host, which serves a
 * stand-in for the renderer's build (a page and a script).
 */
export async function serveWorkspace(
  workspace: { base: string; vault: string; dataDir: string },
  options: Partial<AppOptions> = {},
): Promise<{ app: KastenApp; host: WebHost }> {
  const rendererDir = join(workspace.base, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Kasten</title>');
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  const app = createApp({
    host: 'web',
    version: '0.0.0',
    dataDir: workspace.dataDir,
    resourcesDir: workspace.base,
    vault: workspace.vault,
    ...options,
  });
  await app.start();
  return { app, host: await startWebHost({ app, rendererDir }) };
}
