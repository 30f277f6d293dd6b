import type { ChatSession } from '../../../../shared/chat-domain';
import type { CitedDocument } from './AnswerMarkdown';

/**
 * The session's numbered notes: those it had when loaded, plus those numbered by answers since (each
 * reference carries its number). A reference into a heading makes that heading the chip's target.
 */
export function sessionDocuments(session: ChatSession): Map<number, CitedDocument> {
  const documents = new Map<number, CitedDocument>();
  for (const document of session.documents) {
    documents.set(document.number, {
      path: document.path,
      title: document.title,
      subpath: null,
      summary: '',
    });
  }
  for (const message of session.messages) {
    for (const reference of message.references) {
      if (reference.document === null) continue;
      const known = documents.get(reference.document);
      // A selected passage's citation opens the note at the passage, under its heading.
      const selection = reference.kind === 'selection';
      const passage = selection ? reference.summary : known?.passage;
      documents.set(reference.document, {
        path: reference.path,
        title: reference.title,
        subpath: selection ? reference.subpath : (known?.subpath ?? reference.subpath),
        summary: reference.summary || known?.summary || '',
        ...(passage ? { passage } : {}),
      });
    }
  }
  return documents;
}
