#!/usr/bin/env node
// The `kasten` command: runs the built CLI (`npm run build` produces it).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`kasten: Node 22.12 or newer is required; this is ${process.version}.`);
  process.exit(1);
}
const cli = fileURLToPath(new URL('../out/main/cli.js', import.meta.url));
if (!existsSync(cli)) {
  console.error('kasten: the app is not built yet; run `npm run build` first.');
  process.exit(1);
}
await import(cli);
