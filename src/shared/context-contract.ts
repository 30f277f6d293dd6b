import { z } from 'zod';
import {
  contextStrategies,
  type ContextSettings,
  type ContextStatus,
  type SessionCompaction,
} from './context-domain';
import { request, sessionId } from './contract-definitions';
import { sendItems } from './items-contract';

/** Channels of the context engine: the meter, compaction, how requests are fitted to the window. */
export const contextRequests = {
  /**
   * The context meter: what the next request of the session (a new chat without `sessionId`) would hold,
   * with `draft` — the message being typed, with the notes it links — as its latest message.
   */
  'context:status': request<ContextStatus>()(() =>
    z
      .object({
        sessionId: sessionId.optional(),
        draft: z.string().max(200_000).optional(),
        /** Files prepared for the message being typed, and items chosen for a chat not started yet. */
        attachments: z.array(z.string().min(1).max(100)).max(20).optional(),
        items: sendItems.optional(),
        /**
         * The saved prompt a `/Name` draft calls, with the note open in the viewer: counted as its message
         * would be (the filled words and the `{{note}}` it brings) rather than as typed.
         */
        prompt: z
          .object({
            name: z.string().trim().min(1).max(500),
            note: z.string().min(1).max(4096).optional(),
            selection: z.string().max(200_000).optional(),
            text: z.string().max(200_000).optional(),
          })
          .strict()
          .optional(),
      })
      .strict(),
  ),
  /** Summarizes the session's older messages now (`/compact [focus]`); the messages themselves stay. */
  'context:compact': request<{ compaction: SessionCompaction | null; notice: string | null }>()(() =>
    z.object({ sessionId, focus: z.string().trim().max(2000).optional() }).strict(),
  ),
  /** How requests are fitted to the window: new chats' strategy, shares, threshold, verbatim tail. */
  'context:settings': request<ContextSettings>()(() => z.undefined()),
  'context:configure': request<ContextSettings>()(() =>
    z
      .object({
        strategy: z.enum(contextStrategies),
        shares: z
          .object({
            system: z.number().int().min(0).max(100),
            context: z.number().int().min(0).max(100),
            conversation: z.number().int().min(10).max(100),
          })
          .strict()
          .refine(
            (shares) => shares.system + shares.context + shares.conversation === 100,
            'The shares must add up to 100%.',
          ),
        threshold: z.number().int().min(50).max(95),
        tailTurns: z.number().int().min(1).max(20),
      })
      .strict(),
  ),
  /** How the session's requests are fitted to the window from now on. */
  'context:strategy': request<null>()(() =>
    z.object({ sessionId, strategy: z.enum(contextStrategies) }).strict(),
  ),
} as const;
