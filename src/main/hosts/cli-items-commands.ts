import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { refuseBeforeSending } from '../../shared/attachment-domain';
import type { RequestContext } from '../../shared/context-domain';
import type { SendInput } from '../../shared/context-items-domain';
import { readUpTo } from '../vault/vault-paths';
import { call, type CliHandlers } from './cli-call';

// Non-blocking: opening a FIFO waits for a writer otherwise. (Windows has no such flag, nor FIFOs.)
const attachFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * `--attach`'s file: a regular file only, checked on the descriptor opened (a FIFO, `/dev/zero` or a
 * folder is refused at once instead of read forever), refused past the attachment limit before reading.
 */
async function readAttachedFile(file: string): Promise<Buffer> {
  const handle = await open(resolve(file), attachFlags).catch((error: Error) => {
    throw new Error(`--attach: ${file} could not be read (${error.message}).`);
  });
  try {
    const stats = await handle.stat();
    if (!stats.isFile())
      throw new Error(`--attach: ${file} is not a regular file, so it cannot be attached.`);
    const refusal = refuseBeforeSending(basename(file), stats.size);
    if (refusal) throw new Error(`--attach: ${refusal.message}`);
    return await readUpTo(handle, stats.size);
  } finally {
    await handle.close();
  }
}

/** `kasten ask`'s context item flags: notes to pin, files to attach, manual rules to add. */
export interface AskItemFlags {
  pins: string[];
  attachments: string[];
  rules: string[];
}

export const itemFlagUsage = `       [--pin NOTE]... [--attach FILE]... [--rule NAME]...  pin notes, attach files, add manual rules
  kasten rules <vault> [--json]                             the vault's rules, their include modes and warnings`;

/** The flags' values: repeated flags give lists, a flag given once a list of one. */
export function askItemFlags(values: Record<string, unknown>): AskItemFlags {
  const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
  return { pins: list(values.pin), attachments: list(values.attach), rules: list(values.rule) };
}

/**
 * What `chat:send` needs for the flags: each note found as a link would find it, each file read and
 * counted like a file dropped on the composer. A note not found or a file refused is an error that says
 * which, before anything is sent.
 */
export async function askItems(
  app: CliHandlers,
  flags: AskItemFlags,
): Promise<Pick<SendInput, 'attachments' | 'items'>> {
  const links = flags.pins.map((name) => ({ target: name.replace(/^\[\[|\]\]$/g, ''), subpath: null }));
  const found = links.length > 0 ? await call(app, 'links:resolve', { links }) : [];
  const pinned = flags.pins.map((name, position) => {
    const note = found[position];
    if (!note?.path || note.kind !== 'note')
      throw new Error(`--pin: there is no note “${name}” in the vault.`);
    return note.path;
  });
  const attachments: string[] = [];
  for (const file of flags.attachments) {
    const data = (await readAttachedFile(file)).toString('base64');
    attachments.push((await call(app, 'attachments:prepare', { name: basename(file), data })).token);
  }
  const items = pinned.length + flags.rules.length > 0 ? { pinned, rules: flags.rules } : undefined;
  return { attachments, ...(items ? { items } : {}) };
}

/**
 * An item of a request, or one left out, as `--json` prints it: no `path`, `score` or `reason` when it
 * has none.
 */
function itemReport<Item extends { path?: string; score?: number; reason?: string }>({
  path,
  score,
  reason,
  ...rest
}: Item) {
  return {
    ...rest,
    ...(path === undefined ? {} : { path }),
    ...(score === undefined ? {} : { score }),
    ...(reason === undefined ? {} : { reason }),
  };
}

/**
 * Every item of a request, with how it came in, its score, and why when it went in smaller than whole;
 * and the items left out, with why.
 */
export function requestItemsReport(request: RequestContext) {
  return {
    requestContext: request.items.map(({ kind, label, path, include, score, tokens, form, reason }) =>
      itemReport({ kind, label, path, include, score, tokens, form, reason }),
    ),
    leftOut: request.dropped.map(({ kind, label, path, include, score, tokens, reason }) =>
      itemReport({ kind, label, path, include, score, tokens, reason }),
    ),
  };
}

/** `kasten rules`: the rules folder's notes, how each is included, and what is wrong with any. */
export async function runRulesCommand(
  app: CliHandlers,
  json: boolean,
  stdout: (text: string) => void,
): Promise<number> {
  const rules = await call(app, 'rules:list', undefined);
  const folder = (await call(app, 'items:settings', undefined)).rulesFolder;
  if (json) {
    stdout(JSON.stringify({ folder, rules }, null, 2));
    return 0;
  }
  if (rules.length === 0) {
    stdout(
      `No rules in ${folder}/. A rule is a note there with include: always, manual or agent in its frontmatter.`,
    );
    return 0;
  }
  for (const rule of rules) {
    stdout(
      `${rule.include.padEnd(7)} ${String(rule.tokens).padStart(6)} tokens  ${rule.name}  (${rule.path})`,
    );
    if (rule.description) stdout(`        ${rule.description}`);
    if (rule.warning) stdout(`        ⚠ ${rule.warning}`);
  }
  return 0;
}
