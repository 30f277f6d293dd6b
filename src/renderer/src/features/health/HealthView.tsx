import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { HealthSummary } from '../../../../shared/health-domain';
import { useEscapeLayer } from '../../components/use-escape-layer';
import { useNoteStore } from '../notes/note-store';
import { useVaultStore } from '../vault/vault-store';
import { healthRows, type HealthRow } from './health-rows';
import { linkAt, useHealthStore } from './health-store';
import { HealthRowView, type HealthRowActions } from './HealthRowView';
import './health.css';

/** A row's height before it is measured; rows wrap, so each is measured once shown. */
function estimatedHeight(row: HealthRow | undefined): number {
  if (row?.type === 'link') return 76;
  if (row?.type === 'group' && row.group.reason) return 52;
  return 36;
}

function issuesIn(summary: HealthSummary): number {
  return summary.kinds.reduce((sum, kind) => sum + kind.links, summary.warnings.length);
}

function FolderFilter({ folder, onChange }: { folder: string; onChange: (folder: string) => void }) {
  const folders = useVaultStore((state) => state.folders);
  return (
    <label className="health-folder">
      <span>Folder</span>
      <select value={folder} onChange={(event) => onChange(event.target.value)}>
        <option value="">All folders</option>
        {folder && !folders.includes(folder) && <option value={folder}>{folder}</option>}
        {folders.map((path) => (
          <option key={path} value={path}>
            {path}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Vault health: the issues grouped by kind and target, filtered by folder; a group opens to its links and
 * a link to its spot. Only the rows in view are in the page, and the view is where it was left when it
 * opens again.
 */
export function HealthView() {
  const { summary, error, folder, expanded, folded, pages, show, setFolder } = useHealthStore();
  const open = useNoteStore((state) => state.open);
  useEscapeLayer(true, () => show(false));
  const rows = useMemo(
    () => (summary ? healthRows(summary, { expanded, folded }) : []),
    [summary, expanded, folded],
  );
  const scroller = useRef<HTMLDivElement>(null);
  const [saved] = useState(() => useHealthStore.getState().scroll);
  // The virtualizer is read on every render; nothing here is memoized by hand.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimatedHeight(rows[index]),
    getItemKey: (index) => rows[index]?.id ?? index,
    overscan: 6,
    initialOffset: saved?.offset ?? 0,
    initialMeasurementsCache: saved?.measured ?? [],
  });
  const items = virtualizer.getVirtualItems();

  useEffect(() => {
    const { keepScroll } = useHealthStore.getState();
    return () => keepScroll({ offset: virtualizer.scrollOffset ?? 0, measured: virtualizer.takeSnapshot() });
  }, [virtualizer]);
  // The links of open groups are read as their rows come into view.
  useEffect(() => {
    const { wantLink } = useHealthStore.getState();
    for (const item of items) {
      const row = rows[item.index];
      if (row?.type === 'link') wantLink({ id: row.groupId, kind: row.kind, key: row.group.key }, row.index);
    }
  });

  const actions: HealthRowActions = {
    toggleSection: useHealthStore.getState().toggleSection,
    toggleGroup: useHealthStore.getState().toggleGroup,
    open: (path, line) => {
      show(false);
      void open(path, line);
    },
  };
  const filter = (next: string) => {
    setFolder(next);
    virtualizer.scrollToOffset(0);
  };

  return (
    <section className="note-viewer health-view" aria-label="Vault health" data-testid="health-view">
      <header className="pane-header">
        <h2>Vault health</h2>
        <button
          type="button"
          className="icon-button"
          onClick={() => show(false)}
          aria-label="Close vault health"
        >
          ×
        </button>
      </header>
      <div className="health-toolbar">
        <FolderFilter folder={folder} onChange={filter} />
        {summary && (
          <span className="muted" data-testid="health-total">
            {issuesIn(summary).toLocaleString('en-US')} issues
          </span>
        )}
      </div>
      {error && <p className="error pad">{error}</p>}
      {!summary && !error && <p className="muted pad">Reading the vault's health…</p>}
      {summary && rows.length === 0 && (
        <p className="muted pad">
          {folder ? `Nothing to fix in ${folder}.` : 'Every link resolves and every file was read cleanly.'}
        </p>
      )}
      <div className="health-list" ref={scroller} data-testid="health-list">
        <div className="health-rows" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = rows[item.index]!;
            const link = row.type === 'link' ? linkAt(pages, row.groupId, row.index) : undefined;
            return (
              <div
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                className="health-row"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <HealthRowView row={row} link={link} actions={actions} />
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
