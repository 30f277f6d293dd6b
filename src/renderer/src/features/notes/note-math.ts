import { useSyncExternalStore } from 'react';
import type { Element, ElementContent, Root } from 'hast';
import type { Pluggable } from 'unified';
import { describeError } from '../../../../shared/kasten-api';

/** Where KaTeX stands: a quarter of a megabyte of code, loaded only once a note shows math. */
export type NoteMath =
  { status: 'unloaded' } | { status: 'ready'; plugin: Pluggable } | { status: 'failed'; error: string };

let math: NoteMath = { status: 'unloaded' };
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

function set(next: NoteMath): void {
  math = next;
  for (const listener of listeners) listener();
}

/**
 * Loads KaTeX once; resolves when it can render, or has failed to load (which the notes with math then
 * say; a reload tries again). The notes hear of it only then, never while one is rendering.
 */
export function loadNoteMath(): Promise<void> {
  loading ??= import('./note-katex').then(
    ({ rehypeKatex }) => set({ status: 'ready', plugin: rehypeKatex }),
    (error: unknown) => set({ status: 'failed', error: describeError(error) }),
  );
  return loading;
}

/** KaTeX's state, for a note to render again once it has loaded. */
export function useNoteMath(): NoteMath {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => math,
  );
}

const mathClasses = ['language-math', 'math-display', 'math-inline'];

function hasMath(node: Root | ElementContent): boolean {
  if (node.type === 'element') {
    const classes = node.properties.className;
    if (Array.isArray(classes) && classes.some((name) => mathClasses.includes(String(name)))) return true;
  }
  return 'children' in node && node.children.some((child) => hasMath(child as ElementContent));
}

function unloadedNotice(error: string): Element {
  const text = `Math is shown as written: KaTeX could not be loaded (${error}).`;
  return {
    type: 'element',
    tagName: 'p',
    properties: { className: ['embed-missing'] },
    children: [{ type: 'text', value: text }],
  };
}

/**
 * KaTeX's rehype plugin once it is loaded. Until then math is left as written (the code remark-math
 * marks), and a note that has some starts the loading; if loading failed, the note says so above it.
 */
export function mathPlugin(state: NoteMath): Pluggable {
  if (state.status === 'ready') return state.plugin;
  return () => (tree: Root) => {
    if (!hasMath(tree)) return;
    if (state.status === 'failed') tree.children.unshift(unloadedNotice(state.error));
    else void loadNoteMath();
  };
}
