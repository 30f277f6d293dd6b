// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionCompaction } from '../../../src/shared/context-domain';
import type { KastenApi } from '../../../src/shared/kasten-api';

// The summary's Markdown may link notes; nothing here clicks one, so main is never asked.
window.kasten = {} as KastenApi;

const { CompactionMarker } = await import('../../../src/renderer/src/features/chat/CompactionMarker');

const compaction: SessionCompaction = {
  id: 1,
  text: 'We chose **raised beds** for the tomatoes.',
  coveredIds: [1, 2, 3, 4],
  tokens: 120,
  replacedTokens: 4_800,
  focus: 'the garden plan',
  createdAt: '2025-05-01T10:00:00.000Z',
};

afterEach(cleanup);

function renderMarker() {
  render(
    <CompactionMarker compaction={compaction} count={4} documents={new Map()}>
      <p>First question about tomatoes</p>
    </CompactionMarker>,
  );
  return screen.getByRole('button', { name: '4 earlier messages summarized' });
}

describe('CompactionMarker', () => {
  it('collapsed, says how many messages were summarized and shows neither the summary nor them', () => {
    const marker = renderMarker();
    expect(marker.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('region', { name: 'Summary' })).toBeNull();
    expect(screen.queryByText('First question about tomatoes')).toBeNull();
  });

  it('a click expands it to the summary the model is given, its cost, then the messages themselves', async () => {
    const marker = renderMarker();

    fireEvent.click(marker);

    expect(marker.getAttribute('aria-expanded')).toBe('true');
    const summary = screen.getByRole('region', { name: 'Summary' });
    expect(marker.getAttribute('aria-controls')).toBe(summary.parentElement?.id);
    expect(summary.textContent).toContain('120 tokens instead of 4,800; focus: the garden plan');
    // The Markdown renderer is loaded when the first answer or summary is shown.
    await waitFor(() => expect(summary.querySelector('strong')?.textContent).toBe('raised beds'));
    expect(screen.getByText('First question about tomatoes')).toBeTruthy();
  });

  it('a second click collapses it again', () => {
    const marker = renderMarker();
    fireEvent.click(marker);
    fireEvent.click(marker);
    expect(marker.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('region', { name: 'Summary' })).toBeNull();
  });
});
