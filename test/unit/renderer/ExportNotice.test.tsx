// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KastenApi } from '../../../src/shared/kasten-api';

/** The main process as Open reaches it: the note is read, its backlinks asked for. */
const readNote = vi.fn(async ({ path }: { path: string }) => ({ path, text: '' }));
window.kasten = { notes: { read: readNote }, links: { backlinks: async () => [] } } as unknown as KastenApi;

const { ExportNotice } = await import('../../../src/renderer/src/features/chat/ExportNotice');

const longPath = `Exports/${'a-very-long-folder-name/'.repeat(8)}Chat about the garden.md`;
const onClose = vi.fn();

beforeEach(() => {
  readNote.mockClear();
  onClose.mockReset();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('ExportNotice', () => {
  it('says where the chat went, in the text that wraps a long path', () => {
    render(<ExportNotice sessionId="s" path={longPath} updated={false} onClose={onClose} />);
    const text = screen.getByText(`Exported to ${longPath}`);
    // export-notice.css breaks this text anywhere, so a long path wraps inside the pane.
    expect(text.classList.contains('export-notice-text')).toBe(true);
    expect(text.parentElement).toBe(screen.getByRole('status'));
  });

  it('is dismissed by Close, and not by a click inside it', () => {
    render(<ExportNotice sessionId="s" path={longPath} updated onClose={onClose} />);
    fireEvent.pointerDown(screen.getByText(`Updated ${longPath}`));
    expect(onClose).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Close' }));

    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('Open shows the exported note and dismisses the notice', async () => {
    render(<ExportNotice sessionId="s" path={longPath} updated={false} onClose={onClose} />);

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Open' })));

    expect(readNote).toHaveBeenCalledWith({ path: longPath });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('goes at a key press elsewhere in the page, or by itself after a while', () => {
    vi.useFakeTimers();
    render(<ExportNotice sessionId="s" path={longPath} updated={false} onClose={onClose} />);
    fireEvent.keyDown(document.body, { key: 'a' });
    expect(onClose).toHaveBeenCalledTimes(1);

    act(() => vi.advanceTimersByTime(20_000));
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});
