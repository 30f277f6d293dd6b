import { useEffect, useRef, useState } from 'react';
import { ContextBreakdown } from './ContextBreakdown';
import { useContextStore } from './context-store';
import { exactTokens, meterText } from './token-format';
import './context.css';

/** The status bar's `used / window` with a coloured bar; opens the breakdown. */
export function ContextMeter() {
  const status = useContextStore((state) => state.status);
  const error = useContextStore((state) => state.error);
  const [open, setOpen] = useState(false);
  const anchor = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  // A click anywhere else closes the breakdown, leaving focus where the click put it.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!anchor.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const fill = status && status.window > 0 ? Math.min(100, (status.estimated / status.window) * 100) : 0;
  const usableAt = status && status.window > 0 ? Math.min(100, (status.usable / status.window) * 100) : 100;
  const title = status
    ? `${status.model}: ${exactTokens(status.estimated)} of ${exactTokens(status.window)} tokens ` +
      `(${exactTokens(status.usable)} usable) in the next request. Click for the breakdown.`
    : (error ?? 'Reading the context…');

  return (
    <span className="context-meter-anchor" ref={anchor}>
      <button
        ref={button}
        type="button"
        className="context-meter"
        data-testid="context-meter"
        data-level={status?.level ?? 'ok'}
        aria-haspopup="dialog"
        aria-expanded={open}
        title={title}
        onClick={() => setOpen(!open)}
      >
        <span className="context-meter-label">Context</span>
        <span className="context-meter-text" data-testid="context-meter-text">
          {status ? meterText(status.estimated, status.window) : error ? 'unknown' : '…'}
        </span>
        <span className="context-meter-bar" aria-hidden="true">
          <span className="context-meter-fill" style={{ width: `${fill}%` }} />
          <span className="context-meter-usable" style={{ left: `${usableAt}%` }} />
        </span>
      </button>
      {open && (
        <ContextBreakdown
          onClose={() => {
            setOpen(false);
            button.current?.focus();
          }}
        />
      )}
    </span>
  );
}
