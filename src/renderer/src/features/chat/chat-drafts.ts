import { kasten } from '../../api';

/**
 * Drafts are kept by the main process (`drafts:*`), which outlives reloads, restarts and the browser
 * host's new address. This page keeps a copy too, marked `pending` until the main process has it, so
 * what is typed while the host is down is pushed once it is back.
 */
interface LocalDraft {
  text: string;
  pending: boolean;
}

const prefix = 'kasten.draft.';
/** How long typing may pause before the draft is saved. */
const saveAfterMs = 400;

/** `vault` null: typed before the page knew which vault is open (the first moments after a load). */
function localKey(vault: string | null, sessionId: string | null): string {
  return `${prefix}${JSON.stringify([vault ?? '', sessionId ?? 'new'])}`;
}

function readLocal(key: string): LocalDraft | null {
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? 'null') as Partial<LocalDraft> | null;
    return typeof value?.text === 'string' ? { text: value.text, pending: value.pending === true } : null;
  } catch {
    return null;
  }
}

function writeLocal(key: string, draft: LocalDraft | null): void {
  try {
    if (draft === null || (draft.text === '' && !draft.pending)) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(draft));
  } catch {
    // A full or disabled storage leaves the copy in the main process.
  }
}

const timers = new Map<string, ReturnType<typeof setTimeout>>();

/** Hands the local copy to the main process; it stays pending if the host cannot be reached. */
async function push(key: string): Promise<void> {
  clearTimeout(timers.get(key));
  timers.delete(key);
  const draft = readLocal(key);
  if (!draft?.pending) return;
  const [vault, session] = JSON.parse(key.slice(prefix.length)) as [string, string];
  // A draft of another vault waits until that vault is open again; one of no known vault, its load.
  if (vault === '' || (await kasten.vault.tree()).vault?.path !== vault) return;
  await kasten.drafts.save({ sessionId: session === 'new' ? undefined : session, text: draft.text });
  // Typing may have gone on meanwhile: only the text that was saved stops being pending.
  if (readLocal(key)?.text === draft.text) writeLocal(key, { text: draft.text, pending: false });
}

/** The draft of a chat (`null`: the chat not started yet): the local copy if it was not saved, else main's. */
export async function loadDraft(vault: string, sessionId: string | null): Promise<string> {
  const key = localKey(vault, sessionId);
  // What was typed before the vault was known belongs to this vault's chat.
  const early = readLocal(localKey(null, sessionId));
  if (early?.pending) {
    writeLocal(key, early);
    writeLocal(localKey(null, sessionId), null);
  }
  const local = readLocal(key);
  if (local?.pending) {
    void push(key).catch(() => {});
    return local.text;
  }
  try {
    return (await kasten.drafts.read({ sessionId: sessionId ?? undefined })).text;
  } catch {
    return local?.text ?? '';
  }
}

/** Keeps `text` as the chat's draft: here at once, in the main process once typing pauses. */
export function keepDraft(vault: string | null, sessionId: string | null, text: string): void {
  const key = localKey(vault, sessionId);
  writeLocal(key, { text, pending: true });
  clearTimeout(timers.get(key));
  timers.set(
    key,
    setTimeout(() => void push(key).catch(() => {}), saveAfterMs),
  );
}

/** Hands every draft typed while the host was away to it. */
export function pushPendingDrafts(): void {
  for (let index = 0; index < localStorage.length; index++) {
    const key = localStorage.key(index);
    if (key?.startsWith(prefix) && readLocal(key)?.pending) void push(key).catch(() => {});
  }
}

/** Forgets the chat's draft once its message is sent. */
export function forgetDraft(vault: string, sessionId: string | null): void {
  const key = localKey(vault, sessionId);
  writeLocal(key, { text: '', pending: true });
  void push(key).catch(() => {});
}
