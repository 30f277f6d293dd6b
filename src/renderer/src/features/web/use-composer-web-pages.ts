import { useCallback, useEffect, useRef, useState } from 'react';
import { webAddressesIn } from '../../../../shared/web-addresses';
import { describeError, kasten } from '../../api';
import type { ComposerFile } from '../attachments/use-composer-attachments';

/** A page written in the message: fetched and counted by main, or refused with main's sentence. */
export interface ComposerPage extends ComposerFile {
  url: string;
}

/** At most this many pages go with one message (each is a document the model reads whole). */
const maxPages = 10;
/** The draft settles this long before the addresses in it are fetched, so a half-typed one is not. */
const settleMs = 400;

/**
 * The web pages of the message being typed: every http(s) address in the draft (typed, pasted or
 * dropped) is fetched and counted by main once the typing settles; removing the address, or the chip,
 * lets the page go. The renderer never fetches a page itself.
 */
export function useComposerWebPages(text: string) {
  const [pages, setPages] = useState<ComposerPage[]>([]);
  const nextId = useRef(1);
  const dismissed = useRef(new Set<string>());

  // The list as last set, read when the typing settles (the effect must not start fetches in an updater).
  const current = useRef<ComposerPage[]>([]);
  const set = useCallback((next: (list: ComposerPage[]) => ComposerPage[]) => {
    current.current = next(current.current);
    setPages(current.current);
  }, []);

  useEffect(() => {
    const update = (id: number, patch: Partial<ComposerPage>) =>
      set((list) => list.map((page) => (page.id === id ? { ...page, ...patch } : page)));
    const addresses = webAddressesIn(text);
    // An address taken out of the message may come back: its page is then fetched again. Forgotten at
    // once, not when the typing settles: taken out and written again within that time, it still counts.
    for (const url of dismissed.current) if (!addresses.includes(url)) dismissed.current.delete(url);
    const timer = setTimeout(() => {
      const kept = current.current.filter((page) => addresses.includes(page.url));
      const known = new Set(kept.map((page) => page.url));
      const added: ComposerPage[] = [];
      for (const url of addresses) {
        if (known.has(url) || dismissed.current.has(url)) continue;
        if (kept.length + added.length >= maxPages) break;
        added.push({ id: nextId.current++, url, name: url, state: 'reading', prepared: null, message: null });
      }
      if (added.length === 0 && kept.length === current.current.length) return;
      set(() => [...kept, ...added]);
      for (const page of added) {
        kasten.web.prepare({ url: page.url }).then(
          (prepared) => update(page.id, { state: 'ready', prepared, name: prepared.name }),
          (error: unknown) => update(page.id, { state: 'refused', message: describeError(error) }),
        );
      }
    }, settleMs);
    return () => clearTimeout(timer);
  }, [text, set]);

  const remove = useCallback(
    (id: number) => {
      const page = current.current.find((entry) => entry.id === id);
      if (page) dismissed.current.add(page.url);
      set((list) => list.filter((entry) => entry.id !== id));
    },
    [set],
  );

  const clear = useCallback(() => {
    dismissed.current.clear();
    set(() => []);
  }, [set]);

  return {
    pages,
    remove,
    clear,
    reading: pages.some((page) => page.state === 'reading'),
    /** What `chat:send` takes with the files: the pages read and counted. */
    tokens: pages.flatMap((page) => (page.prepared ? [page.prepared.token] : [])),
  };
}
