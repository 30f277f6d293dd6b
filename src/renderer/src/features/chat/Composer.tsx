import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { NoteTitle } from '../../../../shared/index-domain';
import type { LinkResolution } from '../../../../shared/links/link-resolver';
import { parseWikiLinkInner } from '../../../../shared/markdown/wikilink-inner';
import { kasten } from '../../api';
import { compactCommand } from '../context/compact-command';
import { useContextStore } from '../context/context-store';
import { useIndexStore } from '../status/index-store';
import { connectionProblem, useConnectionStore } from '../connection/connection-store';
import { useChatStore } from './chat-store';
import { suggestionsFor, type Suggestion } from './link-suggestions';

/** The `[[` being typed just before the caret, if any. */
function openLinkBefore(text: string, caret: number): { start: number; query: string } | null {
  const match = /\[\[([^[\]|#\n]*)$/.exec(text.slice(0, caret));
  return match ? { start: match.index, query: match[1]! } : null;
}

/** The wikilinks of a draft, as the main process will parse them on send. */
function linksIn(text: string) {
  return [...text.matchAll(/\[\[([^[\]\n]+)\]\]/g)]
    .map((match) => ({ raw: match[0], parts: parseWikiLinkInner(match[1]!) }))
    .filter((link) => link.parts !== null)
    .map((link) => ({ raw: link.raw, target: link.parts!.target, subpath: link.parts!.subpath }));
}

/** Where the user writes: Enter sends, Shift+Enter adds a line, `[[` completes note titles and aliases. */
export function Composer({ streaming }: { streaming: boolean }) {
  const send = useChatStore((state) => state.send);
  const stop = useChatStore((state) => state.stop);
  const sending = useChatStore((state) => state.sending);
  const offline = useConnectionStore((state) => connectionProblem(state.state));
  const { setDraft, compact } = useContextStore.getState();
  const indexing = useIndexStore((state) => state.progress?.state === 'indexing');
  const indexEpoch = useIndexStore((state) => state.epoch);
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  /** The titles, and the index change they were read at. */
  const [read, setRead] = useState<{ epoch: number; titles: NoteTitle[] } | null>(null);
  const titles = read?.titles ?? null;
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [resolved, setResolved] = useState<{ raw: string; resolution: LinkResolution }[]>([]);
  const input = useRef<HTMLTextAreaElement>(null);

  const open = openLinkBefore(text, caret);
  const openQuery = open?.query ?? null;
  const openStart = open?.start ?? null;
  const suggestions =
    openQuery !== null && titles && dismissed !== openStart ? suggestionsFor(titles, openQuery) : [];
  const linksKey = useMemo(() => JSON.stringify(linksIn(text)), [text]);
  const hasLinks = linksKey !== '[]';
  const linking = open !== null;

  // Titles read before the index changed (a pass ended, a note was added) are read again when next needed.
  const readEpoch = read?.epoch ?? null;
  useEffect(() => {
    if (!linking || readEpoch === indexEpoch) return;
    kasten.notes.titles().then(
      (list) => setRead({ epoch: indexEpoch, titles: list }),
      () => setRead({ epoch: indexEpoch, titles: [] }),
    );
  }, [linking, readEpoch, indexEpoch]);

  useEffect(() => {
    const links = JSON.parse(linksKey) as ReturnType<typeof linksIn>;
    if (links.length === 0) return;
    const timer = setTimeout(() => {
      kasten.links.resolve({ links: links.map(({ target, subpath }) => ({ target, subpath })) }).then(
        (found) => setResolved(links.map((link, index) => ({ raw: link.raw, resolution: found[index]! }))),
        () => setResolved([]),
      );
    }, 150);
    return () => clearTimeout(timer);
  }, [linksKey, indexEpoch]);
  const shownLinks = hasLinks ? resolved : [];

  /** The text changed: the context meter counts the draft too. */
  const edit = (next: string) => {
    setText(next);
    setDraft(next);
  };

  const choose = (suggestion: Suggestion) => {
    if (!open) return;
    const label =
      suggestion.label === suggestion.title ? suggestion.title : `${suggestion.title}|${suggestion.label}`;
    const after = text.slice(caret).replace(/^[^\]\n]*\]\]/, '');
    const next = `${text.slice(0, open.start)}[[${label}]]`;
    edit(next + after);
    setCaret(next.length);
    requestAnimationFrame(() => input.current?.setSelectionRange(next.length, next.length));
  };

  const submit = async () => {
    if (streaming || sending || offline || text.trim() === '') return;
    const command = compactCommand(text);
    if (command) {
      edit('');
      setCaret(0);
      await compact(command.focus);
      return;
    }
    if (await send(text)) {
      edit('');
      setCaret(0);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (suggestions.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((index) => (index + step + suggestions.length) % suggestions.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        choose(suggestions[Math.min(active, suggestions.length - 1)]!);
        return;
      }
      if (event.key === 'Escape') {
        setDismissed(open?.start ?? null);
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <div className="composer">
      {suggestions.length > 0 && (
        <ul className="link-suggestions" role="listbox" aria-label="Notes">
          {suggestions.map((suggestion, index) => (
            <li
              key={`${suggestion.path}:${suggestion.label}`}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => {
                event.preventDefault();
                choose(suggestion);
              }}
            >
              {suggestion.label}
              {suggestion.label !== suggestion.title && <span className="muted"> → {suggestion.title}</span>}
              <span className="muted small"> {suggestion.path}</span>
            </li>
          ))}
        </ul>
      )}
      {shownLinks.length > 0 && (
        <div className="draft-links" data-testid="draft-links">
          {shownLinks.map(({ raw, resolution }) => (
            <span
              key={raw}
              className={`draft-link draft-link-${resolution.status}`}
              title={resolution.reason ?? resolution.path ?? ''}
            >
              {resolution.status === 'broken' ? `${raw} — no such note` : raw}
            </span>
          ))}
        </div>
      )}
      {sending && indexing && (
        <p className="composer-waiting muted small" data-testid="composer-waiting">
          Your message is sent once the index has read the vault; cancel indexing to send it now.
        </p>
      )}
      <div className="composer-row">
        <textarea
          ref={input}
          value={text}
          rows={3}
          placeholder="Ask about your notes. [[ links a note; /compact summarizes the chat so far."
          aria-label="Message"
          data-testid="composer"
          readOnly={sending}
          onChange={(event) => {
            edit(event.target.value);
            setCaret(event.target.selectionStart);
            setActive(0);
          }}
          onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
        />
        {streaming ? (
          <button
            type="button"
            disabled={offline !== null}
            title={offline ?? undefined}
            onClick={() => void stop()}
          >
            Stop
          </button>
        ) : (
          <button
            type="button"
            className="primary"
            disabled={sending || offline !== null || text.trim() === ''}
            title={offline ?? undefined}
            onClick={() => void submit()}
          >
            Send
          </button>
        )}
      </div>
    </div>
  );
}
