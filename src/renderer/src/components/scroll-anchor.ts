/** Where a scrolled view stands: the element at its top (by a key that survives a reload) and how far past it. */
export interface ScrollAnchor {
  key: string;
  /** Pixels from the element's top to the view's top (negative: the view starts above it). */
  offset: number;
}

/**
 * The anchor of `container`'s view among `elements` (in document order): of the last one whose top is
 * at or above the view's top and the first one below it in view, the one nearer the top, so a tall
 * element above does not carry the place when it wraps differently next time.
 */
export function anchorAt(
  container: HTMLElement,
  elements: Iterable<HTMLElement>,
  keyOf: (element: HTMLElement) => string | null,
): ScrollAnchor | null {
  const top = container.getBoundingClientRect().top;
  let above: ScrollAnchor | null = null;
  for (const element of elements) {
    const key = keyOf(element);
    if (key === null) continue;
    const offset = Math.round(top - element.getBoundingClientRect().top);
    if (offset >= 0) {
      above = { key, offset };
      continue;
    }
    const below = { key, offset };
    return above && (above.offset <= -offset || -offset > container.clientHeight) ? above : below;
  }
  return above;
}

/** Scrolls `container` so that `element`'s top stands `offset` pixels above the view's top. */
export function scrollToAnchor(container: HTMLElement, element: HTMLElement, offset: number): void {
  container.scrollTop += element.getBoundingClientRect().top - container.getBoundingClientRect().top + offset;
}

/**
 * Places the view with `place` now and again while what is above it settles (images, diagrams and
 * embeds load later and push it down), until the user scrolls or two seconds pass; returns the stop.
 */
export function holdInPlace(container: HTMLElement, place: () => void): () => void {
  place();
  const keep = new ResizeObserver(() => place());
  keep.observe(container.firstElementChild ?? container);
  const stop = () => keep.disconnect();
  const timer = setTimeout(stop, 2000);
  for (const event of ['wheel', 'keydown', 'pointerdown', 'touchstart'])
    container.addEventListener(event, stop, { once: true, passive: true });
  return () => {
    stop();
    clearTimeout(timer);
  };
}

/**
 * A writer for where a view stands: it writes once scrolling pauses, and at once as the page goes away,
 * so a reload right after scrolling keeps the last place.
 */
export function writerOnPause(delayMs = 150): (write: () => void) => void {
  let pending: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    const write = pending;
    pending = null;
    write?.();
  };
  window.addEventListener('pagehide', flush);
  return (write) => {
    pending = write;
    clearTimeout(timer);
    timer = setTimeout(flush, delayMs);
  };
}
