import { useEffect, useState } from 'react';
import type { NoteTitle } from '../../../../shared/index-domain';
import { kasten } from '../../api';
import { useIndexStore } from '../status/index-store';

/**
 * Every note's title and aliases, read when first `needed` and again when needed after the index changed
 * (a pass ended, a note was added); null until read.
 */
export function useNoteTitles(needed: boolean): NoteTitle[] | null {
  const indexEpoch = useIndexStore((state) => state.epoch);
  const [read, setRead] = useState<{ epoch: number; titles: NoteTitle[] } | null>(null);
  const readEpoch = read?.epoch ?? null;
  useEffect(() => {
    if (!needed || readEpoch === indexEpoch) return;
    kasten.notes.titles().then(
      (titles) => setRead({ epoch: indexEpoch, titles }),
      () => setRead({ epoch: indexEpoch, titles: [] }),
    );
  }, [needed, readEpoch, indexEpoch]);
  return read?.titles ?? null;
}
