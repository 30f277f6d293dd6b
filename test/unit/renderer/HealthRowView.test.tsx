// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HealthRow } from '../../../src/renderer/src/features/health/health-rows';
import { HealthRowView } from '../../../src/renderer/src/features/health/HealthRowView';
import type { HealthGroup } from '../../../src/shared/health-domain';
import type { ResolvedLink } from '../../../src/shared/index-domain';

afterEach(cleanup);

const actions = () => ({ toggleSection: vi.fn(), toggleGroup: vi.fn(), open: vi.fn() });

const canvas: HealthGroup = {
  key: 'canvas',
  target: 'Canvas',
  links: 68,
  notes: 30,
  shared: '24 notes share this name',
  reason: null,
};
const gone: HealthGroup = {
  ...canvas,
  key: 'gone',
  target: 'Gone',
  links: 2,
  notes: 1,
  shared: null,
  reason: 'No note named “Gone”.',
};

const link = (source: string, reason: string): ResolvedLink =>
  ({ source, line: 7, raw: '[[Canvas]]', status: 'ambiguous', reason }) as ResolvedLink;

const linkRow = (group: HealthGroup, index = 0): HealthRow => ({
  type: 'link',
  id: `g\n${index}`,
  groupId: 'g',
  kind: 'ambiguous',
  group,
  index,
});

describe('a row of the health view', () => {
  it('tells a group by its target, what shares it and how many links, and opens it on a click', () => {
    const given = actions();
    render(
      <HealthRowView
        row={{ type: 'group', id: 'ambiguous\ncanvas', kind: 'ambiguous', group: canvas, expanded: false }}
        link={undefined}
        actions={given}
      />,
    );
    const button = screen.getByRole('button');
    expect(button.textContent).toBe('▸Canvas — 24 notes share this name — 68 links in 30 notes');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(given.toggleGroup).toHaveBeenCalledWith('ambiguous\ncanvas');
  });

  it('gives a link’s own reason only when its group has none for all of them', () => {
    const reason = 'Ambiguous: 24 files are named “Canvas”; chose en/Canvas.md (shortest path).';
    const { rerender } = render(
      <HealthRowView
        row={linkRow(canvas)}
        link={link('Release notes/v0.0.1.md', reason)}
        actions={actions()}
      />,
    );
    expect(screen.getByRole('button').textContent).toBe(`Release notes/v0.0.1.md:7[[Canvas]]${reason}`);
    rerender(
      <HealthRowView row={linkRow(gone)} link={link('a.md', 'No note named “Gone”.')} actions={actions()} />,
    );
    expect(screen.getByRole('button').textContent).toBe('a.md:7[[Canvas]]');
  });

  it('opens a link’s note at its line, and says which link it is reading before its page comes', () => {
    const given = actions();
    const { rerender } = render(<HealthRowView row={linkRow(canvas, 41)} link={undefined} actions={given} />);
    expect(screen.getByTestId('health-link-loading').textContent).toBe('Reading link 42…');
    rerender(<HealthRowView row={linkRow(canvas, 41)} link={link('notes/a.md', '')} actions={given} />);
    fireEvent.click(screen.getByRole('button'));
    expect(given.open).toHaveBeenCalledWith('notes/a.md', 7);
  });

  it('keeps each folder of a path apart, so a path through Arabic folders keeps its order', () => {
    const path = 'ar/ملاحظات الإصدار/ملاحظة طويلة 1.md';
    render(<HealthRowView row={linkRow(gone)} link={link(path, '')} actions={actions()} />);
    const parts = [...screen.getByRole('button').querySelectorAll('.health-where bdi')].map(
      (part) => part.textContent,
    );
    expect(parts).toEqual(['ar', 'ملاحظات الإصدار', 'ملاحظة طويلة 1.md']);
  });
});
