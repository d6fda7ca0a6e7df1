// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { renderInIntl } from '#web/test-support/render-in.tsx';
import { afterEach, describe, expect, it } from 'vitest';
import type { LapRow, LapsResponse } from '#core/contracts/sessions.contract.ts';
import { MemoryRouter } from 'react-router';
import { LapsTable } from './laps-table';

afterEach(cleanup);

const sector = (ms: number) => ({
  timerMs: ms,
  upFlag: 0 as const,
  upMax: 0,
  upTrack: 0,
  displayTime: '',
  distanceM: 1000,
});
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
    renderInIntl(<LapsTable data={data} />);
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
    renderInIntl(<LapsTable data={data} />);
    expect(times()).toEqual(['02:10.000', '01:33.500', '01:31.000', '01:32.250', '02:05.000']);
    const tempo = screen.getByRole('button', { name: /^Tempo/ });
    fireEvent.click(tempo);
    expect(times()).toEqual(['01:31.000', '01:33.500', '02:10.000', '01:32.250', '02:05.000']);
    expect(screen.getByRole('columnheader', { name: /^Tempo/ }).getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(tempo);
    expect(times()).toEqual(['02:10.000', '01:33.500', '01:31.000', '02:05.000', '01:32.250']);
    expect(screen.getByRole('columnheader', { name: /^Tempo/ }).getAttribute('aria-sort')).toBe('descending');
  });

  it('marks the rider’s personal best in green with its label, and links every other flying lap to a comparison with it', () => {
    renderInIntl(
      <MemoryRouter>
        <LapsTable
          data={data}
          personalBest={{ heat: 'B', lapCount: 1 }}
          compareHref={(r) => `/comparar?volta=${r.heat}${r.lapCount}&ref=recorde`}
        />
      </MemoryRouter>,
    );
    const rows = screen.getAllByTestId('lap-row');
    const record = rows.filter((r) => r.classList.contains('lap-pb'));
    expect(record).toHaveLength(1);
    expect(within(record[0]!).getByTestId('personal-best').textContent).toBe('◆ Recorde pessoal');
    expect(within(record[0]!).getByText('01:32.250')).toBeTruthy();
    // The session's best (purple) is not the record here: both marks are shown where each belongs.
    expect(rows.find((r) => r.classList.contains('lap-best'))!.classList.contains('lap-pb')).toBe(false);
    const links = screen.getAllByRole('link', { name: /^Comparar com meu recorde/ });
    // Flying laps only (A2, A3), not the out-lap, the in-lap or the record itself.
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      '/comparar?volta=A2&ref=recorde',
      '/comparar?volta=A3&ref=recorde',
    ]);
  });

  it('keeps the time and "Comparar com meu recorde" apart, on screen and for a screen reader', () => {
    renderInIntl(
      <MemoryRouter>
        <LapsTable
          data={data}
          personalBest={{ heat: 'B', lapCount: 1 }}
          compareHref={(r) => `/comparar?volta=${r.heat}${r.lapCount}&ref=recorde`}
        />
      </MemoryRouter>,
    );
    const row = screen.getAllByTestId('lap-row').find((r) => r.textContent!.includes('01:33.500'))!;
    const link = within(row).getByRole('link', { name: 'Comparar com meu recorde (volta A2)' });
    // Its own element and line (display: block in styles.css), never text run on from the time.
    expect(link.classList.contains('compare-link')).toBe(true);
    expect(link.contains(row.querySelector('.lap-time'))).toBe(false);
    const cell = row.querySelector('td.time')!.textContent!;
    expect(cell).not.toMatch(/\d(Comparar|Setores)/);
    expect(cell).toMatch(/01:33\.500.* Comparar com meu recorde \(volta A2\) Setores/);
  });

  it('shows Voltas’s GPS time under the logger’s only where they differ by more than 0.05 s, saying so and why, in words a screen reader reads', () => {
    const gps = new Map([
      ['A2', { seconds: 93.52, differs: false, source: 'logger' as const }],
      ['A3', { seconds: 91.071, differs: true, source: 'logger' as const }],
    ]);
    renderInIntl(<LapsTable data={data} gps={gps} />);
    const rows = screen.getAllByTestId('lap-row');
    // The same time to 0.02 s: one number, not two.
    expect(within(rows[1]!).queryByTestId('gps-time')).toBeNull();
    const differs = within(rows[2]!).getByTestId('gps-time');
    expect(differs.classList.contains('gps-differs')).toBe(true);
    expect(differs.textContent).toBe(
      'GPS 01:31.071 ≠ difere do registrador em +0,071 s Vale o tempo do próprio registrador do arquivo, marcado na linha dele; o GPS do Voltas é a conferência.',
    );
    // The sign is hidden from a screen reader (the words say it); the reason is a line of its own.
    expect(within(differs).getByText('≠').getAttribute('aria-hidden')).toBe('true');
    expect(differs.querySelector('small.gps-why')).toBeTruthy();
    expect(screen.getAllByTestId('gps-time')).toHaveLength(1);
  });
});
