import { describe, expect, it } from 'vitest';
import { compareFromQuery, hasLean } from './compare-page';

const base = 'hw=000000000042&pista=Interlagos&data=15112026&volta=A3';
const q = (s: string) => compareFromQuery(new URLSearchParams(s));

describe('the comparison an address asks for', () => {
  it('against the record, another lap, or a shared link', () => {
    expect(q(`${base}&ref=recorde`)).toEqual({ device: '000000000042', track: 'Interlagos', date: '15112026', lap: 'A3', reference: 'record' });
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
