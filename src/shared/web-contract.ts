import { z } from 'zod';
import type { ProposedChange } from './chat-domain';
import type { PreparedAttachment } from './context-items-domain';
import { request, sessionId } from './contract-definitions';

export interface WebSettings {
  /** Pages on loopback, private, link-local and other non-public addresses may be fetched. */
  allowPrivateAddresses: boolean;
}

/** A web page's address as a channel takes it; the main process checks the scheme and the address. */
const webUrl = z.string().trim().min(1).max(8192);

/** Channels of web pages given to chats. */
export const webRequests = {
  /**
   * Fetches a page in the main process (http and https only, under the address guard), reduces it to its
   * article in Markdown (a PDF is read like an attached one) and counts it; the token goes with `chat:send`
   * as an attachment's does. Refused with a plain message when it cannot be fetched, read or fitted.
   */
  'web:prepare': request<PreparedAttachment>()(() => z.object({ url: webUrl }).strict()),
  'web:settings': request<WebSettings>()(() => z.undefined()),
  'web:configure': request<WebSettings>()(() => z.object({ allowPrivateAddresses: z.boolean() }).strict()),
  /** Proposes a note of a chat's web page (title, source address, date in frontmatter); nothing written yet. */
  'web:save': request<{ token: string; change: Extract<ProposedChange, { kind: 'create' }> }>()(() =>
    z.object({ sessionId, url: webUrl }).strict(),
  ),
  /** The user's decision on a proposed note: written when approved (its path), else let go (null). */
  'web:decide': request<{ path: string } | null>()(() =>
    z.object({ token: z.string().min(1).max(100), approved: z.boolean() }).strict(),
  ),
} as const;
