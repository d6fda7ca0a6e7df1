import { describe, expect, it } from 'vitest';
import { allocGpsColumns, GPS_COLUMN_KEYS, setSample, trimGpsColumns } from './gps-columns';
import { parseGpsSix } from './gps-six';
import { asWritten, gpsSixBytes, gpsSixLine, gpsSixLines } from './gps-six-write';
import { createRandom } from '../sim/random';
import { generateSession } from '../sim/session-generator';
import { loadTracks } from '../test-support/track-files';

// The writer of an imported session's gps.six: the device's line, and values rounded as written
// read back by the device parser to the very columns they were written from.

function columns(n: number, seed: number) {
  const rnd = createRandom(seed);
  const c = allocGpsColumns(n);
  for (let i = 0; i < n; i++) {
    const edge = i % 7 === 0;
    setSample(
      c,
      i,
      asWritten(edge ? -0.00000004 : (rnd.next() - 0.5) * 180, 7),
      asWritten(edge ? 179.99999996 : (rnd.next() - 0.5) * 360, 7),
      asWritten(edge ? 0.05 : rnd.next() * 400, 1),
      Math.floor(rnd.next() * 256),
      edge ? 86_399_999 : Math.floor(rnd.next() * 86_400_000),
      edge ? 65_535 : Math.floor(rnd.next() * 1000),
      i % 2,
      i % 4,
      asWritten(edge ? -0.04 : (rnd.next() - 0.5) * 120, 1),
      asWritten((rnd.next() - 0.5) * 120, 1),
      edge ? 2_000_000_000 : Math.floor(rnd.next() * 2_000_000),
    );
    c.count++;
  }
  return trimGpsColumns(c);
}

describe('gps.six writer', () => {
  it('writes the line as the device does', () => {
    const c = allocGpsColumns(2);
    setSample(c, 0, -23.7012345, -46.6976543, 187.3, 12, 50_511_100, 5, 0, 0, -42.5, -41.8, 1234);
    setSample(
      c,
      1,
      asWritten(-0.00000004, 7),
      180,
      asWritten(0.05, 1),
      0,
      86_399_999,
      0,
      1,
      3,
      asWritten(-0.04, 1),
      0,
      2_000_000_000,
    );
    c.count = 2;
    expect(gpsSixLine(c, 0)).toBe('-23.7012345,-46.6976543|187.3|12|140151.100|5|0|A|-42.5|-41.8|1234\n');
    expect(gpsSixLines(c)).toBe(`${gpsSixLine(c, 0)}0.0000000,180.0000000|0.1|0|235959.999|0|1|D|0.0|0.0|2000000000\n`);
  });

  it('the bytes are the lines, however long a line is', () => {
    const c = allocGpsColumns(3);
    setSample(c, 0, -23.7012345, -46.6976543, 187.3, 12, 50_511_100, 5, 0, 0, -42.5, -41.8, 1234);
    // Not a device's values (no parser takes them back), but columns may hold them: far past the room a line is given.
    setSample(c, 1, -1e300, Number.MAX_VALUE, 1e25, 65_535, 1e15, -2_147_483_648, 1, 3, NaN, -Infinity, 2_147_483_647);
    setSample(c, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    c.count = 3;
    const lines = [0, 1, 2].map((i) => gpsSixLine(c, i));
    expect(lines[1]!.length).toBeGreaterThan(96);
    expect(new TextDecoder().decode(gpsSixBytes(c))).toBe(lines.join(''));
    expect(gpsSixLines(c)).toBe(lines.join(''));
    expect(gpsSixBytes(allocGpsColumns(0))).toEqual(new Uint8Array(0));
  });

  it('values rounded as written come back from the parser exactly', () => {
    const c = columns(5000, 11);
    const back = parseGpsSix(gpsSixLines(c));
    expect(back.problems).toEqual([]);
    expect(back.value.count).toBe(c.count);
    for (const k of GPS_COLUMN_KEYS) {
      if (k === 'line') continue;
      // A negative zero is written "0.0000000", as the device writes it.
      expect(Array.from(back.value[k]), k).toEqual(Array.from(c[k], (x) => x + 0));
    }
  });

  it("the simulator's gps.six is the writer's text of its own samples", () => {
    const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
    const text = generateSession(interlagos, { seed: 9, hz: 10, heats: 1, lapsPerHeat: [1, 1] }).gpsSix;
    const read = parseGpsSix(text);
    expect(read.problems).toEqual([]);
    expect(read.value.count).toBeGreaterThan(1000);
    // A small negative roll or lean is written "-0.0" there (as printf does); it reads back as -0,
    // which toFixed writes "0.0", as the device writes a zero.
    expect(gpsSixLines(read.value)).toBe(text.replace(/\|-0\.0(?=\|)/g, '|0.0'));
  });
});
