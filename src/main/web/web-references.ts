import type { ChatReference } from '../../shared/chat-domain';
import type { StoredAttachment } from '../items/attachment-store';

/** A web page given with a question, as the references list it: its title, address and number. */
export function webReference(
  page: Pick<StoredAttachment, 'url' | 'name' | 'document' | 'tokens'>,
): ChatReference[] {
  if (!page.url) return [];
  return [
    {
      path: page.url,
      title: page.name,
      kind: 'web',
      toolCallId: null,
      document: page.document ?? null,
      subpath: null,
      mode: 'inline',
      tokens: page.tokens,
      summary: '',
    },
  ];
}
