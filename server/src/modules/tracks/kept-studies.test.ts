import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { studySession } from '#core/tracks/corner-study.ts';
import { analyzeTrack } from '#core/tracks/track-analysis.ts';
import { definitionFromCatalogue } from '#core/tracks/track-definition.ts';
import { listLaps } from '#core/laps/session-laps.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { decodeStudy, encodeStudy, type KeptStudy } from './kept-studies';

const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const definition = definitionFromCatalogue(interlagos.points, interlagos.startFinish!, true);
const trace = parseGpsSix(generateSession(interlagos, { seed: 9, heats: 1, lapsPerHeat: [3, 3] }).gpsSix).value;
const analysis = analyzeTrack(trace, definition);
const kept: KeptStudy = {
  corners: definition.corners,
  analysis,
  list: listLaps(analysis.laps, trace, [], false),
  study: studySession(trace, definition, analysis),
};
const KEY = 'dev/Interlagos/01112026@gps@lap#track#shape';

/** The same values with -0 as 0 (as JSON writes it, and as the answer sends it anyway); NaN and Infinity stay. */
function withoutMinusZero(value: unknown): unknown {
  if (Object.is(value, -0)) return 0;
  if (Array.isArray(value)) return value.map(withoutMinusZero);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutMinusZero(v)]));
  return value;
}

describe('a kept corner study', () => {
  it('reads back as it was made, for its own key (JSON keeps no NaN or Infinity: there is none)', async () => {
    expect(await decodeStudy(await encodeStudy(KEY, kept), KEY)).toEqual(withoutMinusZero(kept));
  });

  it('is not read for another version of the session or the track: it is made again', async () => {
    const bytes = await encodeStudy(KEY, kept);
    expect(await decodeStudy(bytes, KEY.replace('@gps@', '@gps2@'))).toBeUndefined();
    expect(await decodeStudy(bytes, KEY.replace('#shape', '#moved'))).toBeUndefined();
  });

  it('bytes that are not a kept study read as none, never as an error', async () => {
    for (const bytes of [
      Buffer.from('not gzip'),
      gzipSync('no first line'),
      gzipSync(`{"version":0,"key":"${KEY}"}\n{}`),
      gzipSync(`{"version":1,"key":"${KEY}"}\n{not json`),
    ])
      expect(await decodeStudy(bytes, KEY)).toBeUndefined();
  });
});
