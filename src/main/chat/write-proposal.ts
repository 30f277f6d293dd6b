import type { ProposedChange } from '../../shared/chat-domain';
import { failure, success, type ToolContext, type ToolOutcome } from '../tools/tool-registry';
import type { PreparedWrite } from '../vault/note-writes';

/** The write tools' line in the system prompt. */
export const writeGuidance =
  'Change notes (create_note, append_to_note, edit_note) only when the user asks; each change waits for their approval.';

/**
 * Checks a write, puts the change on the call's part (`shown` saves and announces it), waits for the
 * user's decision and writes only when approved, recording what it replaced so that it can be undone.
 * Every way it can end becomes the call's result for the model.
 */
export async function proposeWrite(
  context: ToolContext,
  prepare: () => Promise<PreparedWrite>,
): Promise<ToolOutcome> {
  const { call, writes, signal } = context;
  const prepared = await prepare();
  // A chat that allows writes shows what was done, never a card waiting for a decision.
  const byChat = writes.mode === 'ask' && writes.allowedInChat();
  const approval = { change: prepared.change, state: 'pending' as const, ...(byChat ? { byChat } : {}) };
  if (!byChat) {
    call.approval = approval;
    context.shown();
  }
  const decision = writes.mode === 'automatic' || byChat ? true : await writes.decide(call.id, signal);
  if (decision !== true) {
    call.approval = { ...approval, state: 'rejected' };
    return success(
      decision === 'stopped'
        ? 'The user stopped the answer instead of approving the change; nothing was written.'
        : 'The user rejected the change; nothing was written.',
    );
  }
  let committed;
  try {
    committed = await prepared.commit();
  } catch (error) {
    call.approval = { ...approval, state: 'failed' };
    return failure(`The user approved, but nothing was written: ${(error as Error).message}`);
  }
  writes.record(call.id, prepared.change, committed);
  call.approval = { ...approval, state: 'approved' };
  return success(
    byChat
      ? `Written without asking (the user allows writes in this chat): ${describeChange(prepared.change)}.`
      : `The user approved: ${describeChange(prepared.change)}.`,
  );
}

/** "created "X"", "appended 3 lines to "X" at the end of the section "H"": what was written. */
export function describeChange(change: ProposedChange): string {
  if (change.kind === 'create') return `created "${change.path}"`;
  const real = change.realPath ? ` (a link to "${change.realPath}", which was written)` : '';
  if (change.kind === 'edit') {
    const what = change.target === 'section' ? 'replaced the text of the section' : 'replaced the passage';
    const where = change.section === null ? '' : ` in the section "${change.section}"`;
    return change.target === 'section'
      ? `${what} "${change.section}" of "${change.path}"${real}`
      : `${what} in "${change.path}"${real}${where}`;
  }
  const count = change.added.filter((line) => line.trim() !== '').length;
  const where = change.heading === null ? 'at the end' : `at the end of the section "${change.heading}"`;
  return `appended ${count} ${count === 1 ? 'line' : 'lines'} to "${change.path}"${real} ${where}`;
}
