import { useEffect, useRef, type ReactNode } from 'react';
import { useEscapeLayer } from '../../components/use-escape-layer';

/** A sidebar shown over the workspace when the window has no room for it beside the chat. */
export function SidebarDrawer({
  side,
  open,
  onClose,
  children,
}: {
  side: 'left' | 'right';
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const drawer = useRef<HTMLDivElement>(null);
  useEscapeLayer(open, onClose);
  useEffect(() => {
    if (!open) return;
    drawer.current?.focus();
    // A press outside closes it, except on the buttons that toggle it (they close it themselves).
    const outside = (event: PointerEvent) => {
      const target = event.target instanceof Element ? event.target : null;
      if (target && !drawer.current?.contains(target) && !target.closest('.sidebar-toggle')) onClose();
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open, onClose]);

  if (!open) return null;
  return (
    <div
      className={`sidebar-drawer sidebar-drawer-${side}`}
      ref={drawer}
      tabIndex={-1}
      data-testid={side === 'left' ? 'tree-drawer' : 'references-drawer'}
    >
      {children}
    </div>
  );
}
