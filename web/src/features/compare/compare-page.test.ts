import { describe, expect, it } from 'vitest';
import type { PersonalBest } from '#core/contracts/progress.contract.ts';
import { hasLean } from '#web/lib/format.ts';
import { compareFromQuery, firstComparison } from './compare-page';

const base = 'hw=000000000042&pista=Interlagos&data=15112026&volta=A3';
const q = (s: string) => compareFromQuery(new URLSearchParams(s));

describe('the comparison an address asks for', () => {
  it('against the record, another lap, or a shared link', () => {
    expect(q(`${base}&ref=recorde`)).toEqual({
      device: '000000000042',
      track: 'Interlagos',
      date: '15112026',
      lap: 'A3',
      reference: 'record',
    });
    expect(q(`${base}&ref=volta&rhw=000000000042&rpista=Interlagos&rdata=19092026&rvolta=B2`)).toMatchObject({
      reference: 'lap',
      refDevice: '000000000042',
      refTrack: 'Interlagos',
      refDate: '19092026',
      refLap: 'B2',
    });
    expect(q(`${base}&ref=link&link=abc`)).toMatchObject({ reference: 'share', share: 'abc' });
    expect(q(`${base}&ref=link&link=abc&rvolta=A1`)).toMatchObject({ reference: 'share', share: 'abc', refLap: 'A1' });
  });

  it('nothing when the address is incomplete', () => {
    expect(q('hw=000000000042&pista=Interlagos&data=15112026&ref=recorde')).toBeNull();
    expect(q(`${base}`)).toBeNull();
    expect(q(`${base}&ref=volta&rhw=000000000042`)).toBeNull();
    expect(q(`${base}&ref=link`)).toBeNull();
  });

  it('a lean chart only where a logger recorded lean', () => {
    expect(
      hasLean([
        [0, 0, null],
        [0, null],
      ]),
    ).toBe(false);
    expect(hasLean([[0, 12.5], [0]])).toBe(true);
  });
});

describe('what /comparar opens on from the menu', () => {
  const q0 = { hw: '000000000042', pista: 'Interlagos', data: '15112026' };
  const session = { device: '000000000042', track: 'Interlagos', date: '15112026' };
  const lap = (heat: string, number: number, seconds: number, kind = 'flying', complete = true) => ({
    heat,
    number,
    seconds,
    kind,
    complete,
  });
  const laps = [
    lap('A', 0, 150, 'out'),
    lap('A', 1, 118.4),
    lap('A', 2, 117.2),
    lap('B', 1, 116.9),
    lap('B', 2, 116.7, 'flying', false),
    lap('B', 3, 140, 'in'),
  ];
  const record = (over: Partial<PersonalBest>): PersonalBest => ({
    track: 'Interlagos',
    circuit: { id: 'bundled:Interlagos', name: 'Interlagos' },
    tracks: ['Interlagos'],
    lapTimeMs: 116_000,
    device: '000000000042',
    date: '01102026',
    heat: 'C',
    lapCount: 4,
    ...over,
  });

  it('the latest session’s best lap against the record of another day', () => {
    expect(firstComparison(session, laps, record({}))).toEqual({ ...q0, volta: 'B1', ref: 'recorde' });
  });

  it('when the record is a lap of that session: its fastest other lap against the record, never the record against itself', () => {
    expect(firstComparison(session, laps, record({ date: '15112026', heat: 'B', lapCount: 1 }))).toEqual({
      ...q0,
      volta: 'A2',
      ref: 'recorde',
    });
  });

  it('without a record, its two best laps; nothing under two complete flying laps', () => {
    expect(firstComparison(session, laps, undefined)).toEqual({
      ...q0,
      volta: 'A2',
      ref: 'volta',
      rhw: '000000000042',
      rpista: 'Interlagos',
      rdata: '15112026',
      rvolta: 'B1',
    });
    expect(firstComparison(session, [lap('A', 1, 118)], undefined)).toBeNull();
    expect(
      firstComparison(session, [lap('A', 1, 118)], record({ date: '15112026', heat: 'A', lapCount: 1 })),
    ).toBeNull();
  });
});
