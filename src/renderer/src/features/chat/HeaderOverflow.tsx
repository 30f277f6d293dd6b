import { Ellipsis } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useEscapeLayer } from '../../components/use-escape-layer';
import './header-overflow.css';

/** Below this width (in rem) the header's secondary controls would squeeze the chat's title to a few letters. */
const inlineFrom = 44;

/** Whether the header around `element` is narrower than `inlineFrom`, kept up to date as it resizes. */
function useNarrowHeader(element: HTMLElement | null): boolean {
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    const header = element?.closest('header');
    if (!header) return;
    const observer = new ResizeObserver(() => {
      const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
      setNarrow(header.clientWidth < inlineFrom * rem);
    });
    observer.observe(header);
    return () => observer.disconnect();
  }, [element]);
  return narrow;
}

/**
 * The chat header's secondary controls: in the row where there is room for them, otherwise behind a
 * "More chat actions" button whose popover holds them, reached with Tab and closed with Escape.
 */
export function HeaderOverflow({ children }: { children: ReactNode }) {
  const [anchor, setAnchor] = useState<HTMLSpanElement | null>(null);
  const narrow = useNarrowHeader(anchor);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useEscapeLayer(
    open && narrow,
    () => setOpen(false),
    () => button.current,
  );

  return (
    <span ref={setAnchor} className="header-overflow">
      {narrow ? (
        <>
          <button
            ref={button}
            type="button"
            className="icon-button header-overflow-button"
            aria-label="More chat actions"
            title="More chat actions"
            aria-haspopup="dialog"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
          >
            <Ellipsis size={16} aria-hidden />
          </button>
          {open && (
            <div className="header-overflow-popover" role="dialog" aria-label="More chat actions">
              {children}
            </div>
          )}
        </>
      ) : (
        children
      )}
    </span>
  );
}
