// @vitest-environment happy-dom
import type { ComponentProps } from 'react';
import { cleanup, screen, within } from '@testing-library/react';
import { renderInIntl } from '#web/test-support/render-in.tsx';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRouter } from 'react-router';
import type { AnalysisResponse } from '#core/contracts/sessions.contract.ts';
import { LapFiguresTable } from './lap-figures-table';
import { shownLaps } from './shown-laps';

afterEach(cleanup);

const lap = (
  heat: 'A' | 'B',
  lapCount: number,
  durationMs: number,
  outLap = false,
): AnalysisResponse['laps'][number] => ({
  heat,
  lapCount,
  start: 0,
  end: 10,
  outLap,
  durationMs,
  distanceM: 4300,
  topSpeedKmh: 250,
  topSpeedIndex: 3,
  minSpeedKmh: 60,
  maxLeanLeftDeg: -50,
  maxLeanRightDeg: 48,
  meanSatellites: 12,
  minSatellites: 9,
  sampleRateHz: 10,
  weakFix: false,
});
const analysis: AnalysisResponse = {
  laps: [lap('A', 0, 130_000, true), lap('A', 1, 99_783), lap('A', 2, 98_100)],
  topSpeedKmh: 250,
  topSpeedLap: 1,
  topSpeedHeat: 'A',
  maxLeanRightDeg: 48,
  maxLeanRightLap: 1,
  maxLeanRightHeat: 'A',
  maxLeanLeftDeg: -50,
  maxLeanLeftLap: 1,
  maxLeanLeftHeat: 'A',
  sampleRateHz: 10,
};

/** The table of an out-lap and two flying laps (A2 the best), with `more` of its props. */
function renderTable(more: Partial<ComponentProps<typeof LapFiguresTable>>) {
  renderInIntl(
    <MemoryRouter>
      <LapFiguresTable
        analysis={analysis}
        shown={shownLaps(analysis.laps, undefined, [
          { heat: 'A', number: 0, seconds: 130, kind: 'out' },
          { heat: 'A', number: 1, seconds: 99.783, kind: 'flying' },
          { heat: 'A', number: 2, seconds: 98.1, kind: 'flying' },
        ])}
        chosen={new Set()}
        bestKey="A2"
        onToggle={() => {}}
        exportHref={() => '#'}
        {...more}
      />
    </MemoryRouter>,
  );
}

describe('LapFiguresTable', () => {
  it('keeps the lap time and "Comparar com meu recorde" apart, on screen and for a screen reader', () => {
    renderTable({
      personalBestKey: null,
      compareHref: (l) => `/comparar?volta=${l.heat}${l.lapCount}&ref=recorde`,
    });
    const row = screen.getAllByTestId('figures-row').find((r) => r.textContent!.includes('01:39.783'))!;
    const link = within(row).getByRole('link', { name: 'Comparar com meu recorde (volta A1)' });
    expect(link.getAttribute('href')).toBe('/comparar?volta=A1&ref=recorde');
    expect(link.classList.contains('compare-link')).toBe(true);
    // The time is an element of its own; the cell reads "01:39.783 Comparar com meu recorde (volta A1) Detalhes".
    const cell = row.querySelector('.lap-time')!.parentElement!;
    expect(row.querySelector('.lap-time')!.textContent).toBe('01:39.783');
    expect(cell.textContent).not.toMatch(/\d(Comparar|Detalhes)/);
    expect(cell.textContent).toBe('01:39.783 Comparar com meu recorde (volta A1) Detalhes');
  });
});

describe('LapFiguresTable while the rider’s record is asked for', () => {
  it('keeps each flying lap’s "Comparar com meu recorde" room, hidden and unread, so the rows do not grow', () => {
    renderTable({ busy: true });
    const rooms = screen.getAllByTestId('figures-row').map((r) => r.querySelector('.compare-link-room'));
    expect(rooms.map((room) => room?.textContent ?? null)).toEqual([
      null,
      'Comparar com meu recorde',
      'Comparar com meu recorde',
    ]);
    expect(rooms[1]!.getAttribute('aria-hidden')).toBe('true');
    expect(screen.queryAllByRole('link', { name: /Comparar com meu recorde/ })).toEqual([]);
  });
});

describe('LapFiguresTable, an import whose GPS file names the stretches outside its laps A0 too', () => {
  it('gives the list’s A0 its time on the first A0 only: the later ones are pieces, with no time', () => {
    const stretches = {
      ...analysis,
      laps: [lap('A', 0, 8_404, true), { ...lap('A', 1, 99_783), start: 10 }, { ...lap('A', 0, 40_000), start: 20 }],
    };
    renderInIntl(
      <MemoryRouter>
        <LapFiguresTable
          analysis={stretches}
          shown={shownLaps(stretches.laps, undefined, [
            { heat: 'A', number: 0, seconds: 8.404, kind: 'out' },
            { heat: 'A', number: 1, seconds: 99.783, kind: 'flying' },
          ])}
          chosen={new Set()}
          bestKey="A1"
          onToggle={() => {}}
          exportHref={() => '#'}
        />
      </MemoryRouter>,
    );
    const rows = screen
      .getAllByTestId('figures-row')
      .map((r) => [r.querySelector('td:nth-child(2)')!.textContent, r.querySelector('.lap-time')!.textContent]);
    expect(rows).toEqual([
      ['A0saída', '00:08.404'],
      ['A1★ melhor', '01:39.783'],
      ['A0trecho', '—'],
    ]);
  });
});
