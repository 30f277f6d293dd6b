import type { SavedPromptCall } from '../chat/chat-store';
import { promptCall } from './slash-commands';
import { usePromptsStore } from './prompts-store';

/**
 * The saved prompt a message starting with `/` calls, run on the note open in the viewer; undefined
 * for any other message. The list is read first when it was not yet (a draft restored with `/Name`).
 */
export async function savedPromptCall(
  text: string,
  openNote: string | null,
): Promise<SavedPromptCall | undefined> {
  if (!text.trimStart().startsWith('/')) return undefined;
  if (usePromptsStore.getState().view === null) await usePromptsStore.getState().load();
  const call = promptCall(text, usePromptsStore.getState().view?.prompts ?? []);
  if (!call) return undefined;
  return {
    name: call.prompt.name,
    ...(openNote ? { note: openNote } : {}),
    ...(call.rest ? { text: call.rest } : {}),
  };
}
