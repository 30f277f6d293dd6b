import { useEffect, useRef } from 'react';
import type { SearchHit, SearchRanker } from '../../../../shared/index-domain';
import { useEscapeLayer } from '../../components/use-escape-layer';
import { useNoteStore } from '../notes/note-store';
import { useVaultStore } from '../vault/vault-store';
import { searchActive, useSearchStore } from './search-store';
import { snippetParts } from './snippet-parts';
import { PartialNotice, SearchFooter } from './SearchSummary';
import './search.css';

const folderOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

/** The search box, with folder and tag filters; Ctrl/Cmd+K focuses it from anywhere. */
export function SearchBox() {
  const { query, folder, tag, tags, hits, selected, set, select, loadTags, clear } = useSearchStore();
  const folders = useVaultStore((state) => state.folders);
  const open = useNoteStore((state) => state.open);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const focus = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        input.current?.focus();
        input.current?.select();
      }
    };
    window.addEventListener('keydown', focus);
    return () => window.removeEventListener('keydown', focus);
  }, []);

  const openSelected = () => {
    const hit = hits[selected];
    if (hit) void open(hit.path);
  };

  return (
    <div className="search-box" role="search">
      <input
        ref={input}
        type="search"
        data-testid="search-input"
        aria-label="Search notes"
        placeholder="Search notes  (Ctrl+K)"
        value={query}
        onFocus={() => void loadTags()}
        onChange={(event) => set({ query: event.target.value })}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') select(selected + 1);
          else if (event.key === 'ArrowUp') select(selected - 1);
          else if (event.key === 'Enter') openSelected();
          else if (event.key === 'Escape') clear();
          else return;
          event.preventDefault();
        }}
      />
      {query.trim() !== '' && (
        <div className="search-filters">
          <select
            aria-label="Folder filter"
            value={folder}
            onChange={(event) => set({ folder: event.target.value })}
          >
            <option value="">All folders</option>
            {folders.map((path) => (
              <option key={path} value={path}>
                {path}
              </option>
            ))}
          </select>
          <select aria-label="Tag filter" value={tag} onChange={(event) => set({ tag: event.target.value })}>
            <option value="">All tags</option>
            {tags.map(({ tag: name, count }) => (
              <option key={name} value={name}>
                #{name} ({count})
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}

/** How each ranking's group is named: some-words hits follow the others under a heading. */
const groupNames: Record<SearchRanker, { label: string; heading: boolean }> = {
  'all-words': { label: 'Matching every word', heading: false },
  'some-words': { label: 'Also matching some words', heading: true },
  semantic: { label: 'Similar in meaning', heading: false },
};

/** The hits in order, in runs of the same ranking: the notes holding every word, then those holding some. */
function groupsOf(hits: SearchHit[]) {
  const groups: { ranker: SearchRanker; hits: { hit: SearchHit; index: number }[] }[] = [];
  hits.forEach((hit, index) => {
    const last = groups.at(-1);
    if (last?.ranker === hit.ranker) last.hits.push({ hit, index });
    else groups.push({ ranker: hit.ranker, hits: [{ hit, index }] });
  });
  return groups;
}

/** Results replace the tree while a search is active. */
export function SearchResults() {
  const { hits, selected, pending, error, partial, select } = useSearchStore();
  const active = useSearchStore(searchActive);
  const open = useNoteStore((state) => state.open);
  const openPath = useNoteStore((state) => state.path);
  const list = useRef<HTMLDivElement>(null);
  useEscapeLayer(
    active,
    () => useSearchStore.getState().clear(),
    () => document.querySelector<HTMLElement>('[data-testid="search-input"]'),
  );

  useEffect(() => {
    list.current?.querySelector<HTMLElement>('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  if (!active) return null;
  if (error) return <p className="error pad">{error}</p>;
  const notice = partial && !pending ? <PartialNotice partial={partial} /> : null;
  if (hits.length === 0)
    return (
      <>
        {notice}
        <p className="muted pad">{pending ? 'Searching…' : 'No note matches every word.'}</p>
      </>
    );
  return (
    <div className="search-results" ref={list}>
      {notice}
      <div role="listbox" aria-label="Search results">
        {groupsOf(hits).map((group) => {
          const { label, heading } = groupNames[group.ranker];
          const start = group.hits[0]!.index;
          return (
            <ul
              key={start}
              role="group"
              data-testid={`search-group-${group.ranker}`}
              {...(heading ? { 'aria-labelledby': `search-group-${start}` } : { 'aria-label': label })}
            >
              {heading && (
                <li role="presentation" id={`search-group-${start}`} className="search-group">
                  {label}
                </li>
              )}
              {group.hits.map(({ hit, index }) => (
                <li key={hit.path} role="option" aria-selected={index === selected}>
                  <button
                    type="button"
                    data-testid="search-result"
                    className={`search-result${index === selected ? ' active' : ''}${hit.path === openPath ? ' open' : ''}`}
                    onMouseEnter={() => select(index)}
                    onClick={() => void open(hit.path)}
                  >
                    <span className="search-heading">
                      <span className="search-title">{hit.title}</span>
                      {hit.ranker === 'semantic' && (
                        <span
                          className="search-semantic"
                          data-testid="semantic-hit"
                          title="Found by meaning: the note does not contain these words"
                        >
                          semantic
                        </span>
                      )}
                    </span>
                    {folderOf(hit.path) && <span className="search-folder">{folderOf(hit.path)}</span>}
                    <span className="search-snippet">
                      {snippetParts(hit.snippet).map((part, key) =>
                        part.match ? <mark key={key}>{part.text}</mark> : <span key={key}>{part.text}</span>,
                      )}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          );
        })}
      </div>
      <SearchFooter />
    </div>
  );
}
