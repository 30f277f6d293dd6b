import { useEffect } from 'react';
import type { MentionNotice } from '../chat/add-mention';
import { slashCommands, slashQuery } from './slash-commands';
import { SlashRow } from './SlashRow';
import { usePromptsStore } from './prompts-store';

/**
 * `/` at the start of the message: the saved prompts with their descriptions, and `/compact`, filtered
 * by what follows the `/`. Choosing one writes `/name ` for Enter to send.
 */
export function useSlashCompletion(
  text: string,
  caret: number,
  edit: (text: string, caret: number) => void,
  notify: (notice: MentionNotice) => void,
) {
  const query = slashQuery(text, caret);
  const open = query !== null;
  const view = usePromptsStore((state) => state.view);
  const error = usePromptsStore((state) => state.error);
  useEffect(() => {
    if (open && view === null) void usePromptsStore.getState().load();
  }, [open, view]);
  if (query === null) return null;
  const commands = slashCommands(view?.prompts ?? [], query);
  return {
    start: 0,
    label: error ? `Commands (saved prompts could not be listed: ${error})` : 'Commands and saved prompts',
    rows: commands.map((command) => ({
      key: `${command.kind}:${command.name}`,
      content: <SlashRow command={command} />,
    })),
    /** The row is what was typed already (`/compact`, `/Summarize`): Enter sends rather than chooses. */
    typedWhole(index: number): boolean {
      const name = commands[index]?.name.toLowerCase();
      const typed = query.toLowerCase();
      return name !== undefined && (name === typed || name.replace(/\s+/g, '-') === typed);
    },
    choose(index: number) {
      const command = commands[index];
      if (!command) return;
      const written = `/${command.name} `;
      const rest = text.slice(caret).replace(/^\S*/, '');
      edit(`${written}${rest.trimStart()}`, written.length);
      if (command.kind === 'prompt' && !command.prompt.usable) {
        notify({ text: `/${command.name} does not run: ${command.prompt.warnings.join(' ')}`, failed: true });
      }
    },
  };
}
