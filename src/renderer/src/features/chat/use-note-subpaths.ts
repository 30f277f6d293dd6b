import { useEffect, useState } from 'react';
import type { NoteSubpaths } from '../../../../shared/index-domain';
import { kasten } from '../../api';
import { useIndexStore } from '../status/index-store';

interface Read {
  target: string;
  epoch: number;
  subpaths: NoteSubpaths | null;
  /** The note's text by line, read for its blocks' words; null until read or when there are none. */
  lines: string[] | null;
}

/**
 * The headings and blocks of the note the link `target` leads to (null: no `[[Note#` open), read when the
 * target changes, after a pause in typing, and again after the index changed; null until read.
 */
export function useNoteSubpaths(target: string | null): Omit<Read, 'target' | 'epoch'> | null {
  const indexEpoch = useIndexStore((state) => state.epoch);
  const [read, setRead] = useState<Read | null>(null);
  const current = read !== null && read.target === target && read.epoch === indexEpoch;
  useEffect(() => {
    if (target === null || current) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      void (async () => {
        const subpaths = await kasten.links.subpaths({ target }).catch(() => null);
        const lines =
          subpaths && subpaths.blocks.length > 0
            ? await kasten.notes
                .read({ path: subpaths.path })
                .then((note) => note.content.split(/\r?\n/))
                .catch(() => null)
            : null;
        if (!cancelled) setRead({ target, epoch: indexEpoch, subpaths, lines });
      })();
    }, 100);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [target, indexEpoch, current]);
  return read !== null && read.target === target ? { subpaths: read.subpaths, lines: read.lines } : null;
}
