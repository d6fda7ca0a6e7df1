// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInIntl } from '#web/test-support/render-in.tsx';
import { CornerTable, type CornerComparison } from './corner-table';

afterEach(cleanup);

const corner = (n: number, seconds: number, minKmh: number) => ({
  corner: n,
  seconds,
  entryKmh: 180,
  minKmh,
  apexM: 100 * n,
  apex: { lat: -23.7, lon: -46.69 },
  exitKmh: 150,
  maxLeanDeg: 48,
  brakeBeforeApexM: 80,
  topKmhBefore: 200,
});
const delta = (n: number, deltaSeconds: number) => ({
  segment: `T${n}`,
  kind: 'corner' as const,
  corner: n,
  deltaSeconds,
  brakedEarlierM: null,
  apexKmh: null,
  exitKmh: null,
  topKmh: null,
});
const comparison: CornerComparison = {
  lapCorners: [corner(1, 5.234, 92), corner(2, 7.5, 60)],
  referenceCorners: [corner(1, 5.1, 95), corner(2, 7.6, 61)],
  segments: [delta(1, 0.134), delta(2, -0.004)],
};

describe('the corner table', () => {
  it('reads the same on both pages: the gap as formatGap writes it, the reference in brackets', () => {
    renderInIntl(<CornerTable comparison={comparison} units="metric" testId="t" />);
    const [t1, t2] = within(screen.getByTestId('t')).getAllByRole('row').slice(1);
    expect(within(t1!).getByText('+0,13 s').className).toBe('delta-lost');
    // A gap that rounds to nothing is no loss, and carries no minus.
    expect(within(t2!).getByText('+0,00 s').className).toBe('delta-gained');
    expect(t1!.textContent).toContain('5,23 (5,10)');
    expect(t1!.textContent).toContain('92 (95)');
    expect(screen.getAllByRole('columnheader')).toHaveLength(8);
  });

  it('brief: no entry speed nor braking point; without onZoom the corners are no buttons', () => {
    renderInIntl(<CornerTable comparison={comparison} units="metric" testId="t" brief />);
    expect(screen.getAllByRole('columnheader')).toHaveLength(6);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('a corner zooms to itself, and the one shown is marked', () => {
    const onZoom = vi.fn();
    renderInIntl(<CornerTable comparison={comparison} units="metric" testId="t" focused="T2" onZoom={onZoom} />);
    fireEvent.click(screen.getByRole('button', { name: /T1/ }));
    expect(onZoom).toHaveBeenCalledWith('T1');
    expect(screen.getAllByRole('row')[2]!.className).toBe('row-focused');
  });

  it('nothing at all for a lap without corners', () => {
    renderInIntl(<CornerTable comparison={{ ...comparison, lapCorners: [] }} units="metric" testId="t" />);
    expect(screen.queryByTestId('t')).toBeNull();
  });
});
