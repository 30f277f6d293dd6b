import { X } from 'lucide-react';
import type { NoteSelection } from '../../../../shared/selection-domain';
import { openReference } from '../references/open-reference';
import { useAskStore } from './ask-store';

/** How much of the passage the quote shows; the whole passage is sent. */
const quoteChars = 600;

/** "Title › Heading", a button that opens the note at the passage. */
function Source({ selection, title }: { selection: NoteSelection; title: string }) {
  return (
    <button
      type="button"
      className="link-button small"
      title={`Open “${title}” at this passage`}
      onClick={() => void openReference(selection.path, selection.heading, selection.text)}
    >
      {title}
      {selection.heading ? ` › ${selection.heading}` : ''}
    </button>
  );
}

function Quote({ text }: { text: string }) {
  const trimmed = text.trim();
  return (
    <blockquote>{trimmed.length > quoteChars ? `${trimmed.slice(0, quoteChars)}…` : trimmed}</blockquote>
  );
}

/** The passage "Ask" put in the composer, with its note and heading; × takes it out again. */
export function ComposerPassage() {
  const asked = useAskStore((state) => state.asked);
  if (!asked) return null;
  const { selection, title } = asked;
  return (
    <section className="asked-passage small" data-testid="asked-passage" aria-label="Passage asked about">
      <div className="asked-passage-source">
        <span className="muted">Asking about a passage of</span>
        <Source selection={selection} title={title} />
        <span className="muted">({selection.text.trim().length.toLocaleString('en')} characters)</span>
        <button
          type="button"
          className="icon-button"
          aria-label="Remove the passage"
          title="Remove the passage"
          onClick={() => useAskStore.getState().clear()}
        >
          <X size={14} aria-hidden />
        </button>
      </div>
      <Quote text={selection.text} />
    </section>
  );
}

/** The passage a sent question asked about, above its words. */
export function SentPassage({ selection, title }: { selection: NoteSelection; title: string }) {
  return (
    <section className="asked-passage small" data-testid="sent-passage" aria-label="Passage asked about">
      <div className="asked-passage-source">
        <span className="muted">About a passage of</span>
        <Source selection={selection} title={title} />
      </div>
      <Quote text={selection.text} />
    </section>
  );
}
