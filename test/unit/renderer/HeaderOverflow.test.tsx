// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HeaderOverflow } from '../../../src/renderer/src/features/chat/HeaderOverflow';

/** happy-dom lays nothing out: the header is as wide as a test says, and observing it reports that at once. */
let headerWidth = 0;
class ImmediateResizeObserver {
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe() {
    this.callback([], this as unknown as ResizeObserver);
  }
  unobserve() {}
  disconnect() {}
}

beforeEach(() => {
  vi.stubGlobal('ResizeObserver', ImmediateResizeObserver);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => headerWidth);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function renderHeader(widthPx: number) {
  headerWidth = widthPx;
  render(
    <header>
      <h2>Garden notes</h2>
      <HeaderOverflow>
        <button type="button">Export chat</button>
        <button type="button">Compact</button>
      </HeaderOverflow>
    </header>,
  );
}

describe('HeaderOverflow', () => {
  it('shows the actions in the row when the header is wide, with no "More chat actions" button', () => {
    renderHeader(1200);
    expect(screen.getByRole('button', { name: 'Export chat' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'More chat actions' })).toBeNull();
  });

  it('in a narrow header hides the actions behind "More chat actions", which opens a popover holding them', () => {
    renderHeader(400);
    expect(screen.queryByRole('button', { name: 'Export chat' })).toBeNull();
    const more = screen.getByRole('button', { name: 'More chat actions' });
    expect(more.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(more);

    const popover = screen.getByRole('dialog', { name: 'More chat actions' });
    expect(more.getAttribute('aria-expanded')).toBe('true');
    expect(popover.contains(screen.getByRole('button', { name: 'Export chat' }))).toBe(true);
  });

  it('closes on Escape from inside the popover and gives focus back to "More chat actions"', () => {
    renderHeader(400);
    const more = screen.getByRole('button', { name: 'More chat actions' });
    fireEvent.click(more);
    const exportChat = screen.getByRole('button', { name: 'Export chat' });
    act(() => exportChat.focus());
    expect(document.activeElement).toBe(exportChat);

    fireEvent.keyDown(exportChat, { key: 'Escape' });

    expect(screen.queryByRole('dialog', { name: 'More chat actions' })).toBeNull();
    expect(more.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(more);
  });
});
