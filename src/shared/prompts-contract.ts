import { z } from 'zod';
import type { ChatMessage, SessionSummary } from './chat-domain';
import { request, sessionId } from './contract-definitions';
import type { PromptsView } from './prompt-domain';

const promptsFolder = z
  .string()
  .trim()
  .max(1000)
  .refine((folder) => !folder.includes('\0'), 'A folder cannot contain NUL.')
  .refine(
    (folder) => !folder.split(/[\\/]/).includes('..'),
    'The prompts folder must be inside the vault (no “..”).',
  );

/** Channels of saved prompts: notes of the vault's prompts folder, run from `/` in the composer. */
export const promptRequests = {
  /** The open vault's saved prompts with their descriptions, variables and warnings, and their folder. */
  'prompts:list': request<PromptsView>()(() => z.undefined()),
  /** Sets the open vault's prompts folder ('' for the default, `_kasten/prompts`). */
  'prompts:configure': request<PromptsView>()(() => z.object({ folder: promptsFolder }).strict()),
  /**
   * Runs a saved prompt as a message of the chat (a new one without `sessionId`): its variables filled
   * from `note` (vault-relative) and `selection`, with `text` after it; answered as `chat:send` is.
   */
  'prompts:send': request<{
    session: SessionSummary;
    userMessage: ChatMessage;
    assistantMessage: ChatMessage;
  }>()(() =>
    z
      .object({
        sessionId: sessionId.optional(),
        name: z.string().trim().min(1, 'Name a prompt.').max(500),
        note: z.string().min(1).max(4096).optional(),
        selection: z.string().max(200_000, 'The selection is longer than 200,000 characters.').optional(),
        text: z.string().max(200_000).optional(),
        attachments: z.array(z.string().min(1).max(100)).max(20).optional(),
        writes: z.enum(['ask', 'allow']).optional(),
      })
      .strict(),
  ),
} as const;
