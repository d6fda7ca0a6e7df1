// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LapRow, LapsResponse } from '../../../../core/contracts/sessions.contract';
import { LapsTable } from './laps-table';

afterEach(cleanup);

const sector = (ms: number) => ({ timerMs: ms, upFlag: 0 as const, upMax: 0, upTrack: 0, displayTime: '', distanceM: 1000 });
function lap(heat: 'A' | 'B', lapCount: number, lapTimeMs: number, over: Partial<LapRow> = {}): LapRow {
  return {
    lapCount,
    heat,
    lapTime: '',
    lapTimeMs,
    lapSeconds: lapTimeMs / 1000,
    sectors: [sector(23_000), sector(24_000), sector(22_000), sector(23_500)],
    sprintCount: 1,
    distanceM: 4300 + lapCount,
    kind: 'flying',
    gapMs: lapTimeMs - 91_000,
    isBest: false,
    bestSectors: [false, false, false, false],
    ...over,
  };
}
const data: LapsResponse = {
  device: '000000000042',
  track: 'Interlagos',
  date: '15112026',
  demo: false,
  laps: [
    lap('A', 1, 130_000, { kind: 'out', gapMs: null }),
    lap('A', 2, 93_500),
    lap('A', 3, 91_000, { isBest: true, gapMs: 0, bestSectors: [true, false, true, false] }),
    lap('B', 1, 92_250),
    lap('B', 2, 125_000, { kind: 'in', gapMs: null }),
  ],
  bestLapMs: 91_000,
  bestSectorsMs: [23_000, 24_000, 22_000, 23_500],
  theoreticalBestMs: 90_000,
  warnings: [],
};
const times = () => screen.getAllByTestId('lap-row').map((r) => r.querySelector('.lap-time')!.textContent);

describe('LapsTable', () => {
  it('groups laps by heat, marks the best lap and best sectors, and labels out- and in-laps', () => {
    render(<LapsTable data={data} />);
    expect(screen.getAllByRole('rowheader').map((h) => h.textContent)).toEqual(['Bateria A', 'Bateria B']);
    const best = screen.getAllByTestId('lap-row').filter((r) => r.classList.contains('lap-best'));
    expect(best).toHaveLength(1);
    expect(within(best[0]!).getByText('01:31.000')).toBeTruthy();
    expect(within(best[0]!).getByText('★ melhor')).toBeTruthy();
    expect(within(best[0]!).getAllByText(/\(melhor setor\)/)).toHaveLength(2);
    expect(screen.getByText('saída')).toBeTruthy();
    expect(screen.getByText('entrada')).toBeTruthy();
  });

  it('sorts by Tempo ascending, then descending, within each heat; aria-sort follows', () => {
    render(<LapsTable data={data} />);
    expect(times()).toEqual(['02:10.000', '01:33.500', '01:31.000', '01:32.250', '02:05.000']);
    const tempo = screen.getByRole('button', { name: /^Tempo/ });
    fireEvent.click(tempo);
    expect(times()).toEqual(['01:31.000', '01:33.500', '02:10.000', '01:32.250', '02:05.000']);
    expect(screen.getByRole('columnheader', { name: /^Tempo/ }).getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(tempo);
    expect(times()).toEqual(['02:10.000', '01:33.500', '01:31.000', '02:05.000', '01:32.250']);
    expect(screen.getByRole('columnheader', { name: /^Tempo/ }).getAttribute('aria-sort')).toBe('descending');
  });
});
