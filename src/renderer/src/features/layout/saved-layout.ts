import type { Layout } from 'react-resizable-panels';

/** Split sizes (percentages by panel id) remembered per layout mode; a bad or foreign value reads as none. */
export function readLayout(key: string): Layout | undefined {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(key) ?? 'null');
    if (!value || typeof value !== 'object') return undefined;
    const entries = Object.entries(value);
    if (
      entries.length === 0 ||
      entries.some(([, size]) => typeof size !== 'number' || size < 0 || size > 100)
    )
      return undefined;
    return Object.fromEntries(entries) as Layout;
  } catch {
    return undefined;
  }
}

export function writeLayout(key: string, layout: Layout): void {
  try {
    localStorage.setItem(key, JSON.stringify(layout));
  } catch {
    // A full or disabled storage only costs remembering the sizes.
  }
}
