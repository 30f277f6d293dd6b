import { useEffect, useRef } from 'react';

interface Layer {
  close(): void;
  returnFocus: HTMLElement | null;
}

/** Open menus, popovers and panels, the newest last: one Escape closes only the top one. */
const layers: Layer[] = [];

function onKeyDown(event: KeyboardEvent) {
  // A field that used Escape itself (clearing a search, leaving a suggestion list) has said so.
  if (event.key !== 'Escape' || event.defaultPrevented) return;
  const top = layers.pop();
  if (!top) return;
  event.preventDefault();
  top.close();
  if (top.returnFocus?.isConnected) top.returnFocus.focus();
}

/**
 * While `open`, Escape (from anywhere in the page) calls `close` and gives focus back to `returnTo`, or to
 * what had focus when the layer opened.
 */
export function useEscapeLayer(open: boolean, close: () => void, returnTo?: () => HTMLElement | null): void {
  const latest = useRef({ close, returnTo });
  useEffect(() => {
    latest.current = { close, returnTo };
  });
  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const layer: Layer = {
      close: () => latest.current.close(),
      get returnFocus() {
        return latest.current.returnTo?.() ?? opener;
      },
    };
    if (layers.length === 0) window.addEventListener('keydown', onKeyDown);
    layers.push(layer);
    return () => {
      const index = layers.indexOf(layer);
      if (index >= 0) layers.splice(index, 1);
      if (layers.length === 0) window.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);
}
