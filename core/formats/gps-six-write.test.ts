import { describe, expect, it } from 'vitest';
import { allocGpsColumns, GPS_COLUMN_KEYS, setSample, trimGpsColumns } from './gps-columns';
import { parseGpsSix } from './gps-six';
import { gpsSixBytes, gpsSixLine } from './gps-six-write';
import { createRandom } from '../sim/geo';

// The fast writer against the plain one (its oracle): the same lines, value for value, and both
// read back by the device parser to the columns they were written from.

function columns(n: number, seed: number) {
  const rnd = createRandom(seed);
  const c = allocGpsColumns(n);
  for (let i = 0; i < n; i++) {
    const edge = i % 7 === 0;
    setSample(
      c,
      i,
      edge ? -0.00000004 : (rnd.next() - 0.5) * 180,
      edge ? 179.99999996 : (rnd.next() - 0.5) * 360,
      edge ? 0.05 : rnd.next() * 400,
      Math.floor(rnd.next() * 256),
      edge ? 86_399_999 : Math.floor(rnd.next() * 86_400_000),
      edge ? 65_535 : Math.floor(rnd.next() * 1000),
      i % 2,
      i % 4,
      edge ? -0.04 : (rnd.next() - 0.5) * 120,
      (rnd.next() - 0.5) * 120,
      edge ? 2_000_000_000 : Math.floor(rnd.next() * 2_000_000),
    );
    c.count++;
  }
  return trimGpsColumns(c);
}

describe('gps.six writer', () => {
  it('writes what the plain writer writes, within the last written digit, and parses back to the same values', () => {
    const c = columns(5000, 11);
    const fast = new TextDecoder().decode(gpsSixBytes(c, 0, c.count));
    const plain = Array.from({ length: c.count }, (_, i) => gpsSixLine(c, i)).join('');
    const a = parseGpsSix(fast);
    const b = parseGpsSix(plain);
    expect(a.problems).toEqual([]);
    expect(b.problems).toEqual([]);
    expect(a.value.count).toBe(c.count);
    const within = { lat: 1.01e-7, lon: 1.01e-7, speed: 0.101, roll: 0.101, leanFiltered: 0.101 } as Record<string, number>;
    for (const k of GPS_COLUMN_KEYS) {
      if (k === 'line') continue;
      for (let i = 0; i < c.count; i++) {
        const [x, y] = [a.value[k][i]!, b.value[k][i]!];
        if (within[k] === undefined) expect(x, `${k}[${i}]`).toBe(y);
        else expect(Math.abs(x - y), `${k}[${i}]: ${x} vs ${y}`).toBeLessThan(within[k]!);
      }
    }
    // Most lines are byte for byte the same (a value exactly halfway may round the other way).
    const same = fast.split('\n').filter((line, i) => line === plain.split('\n')[i]).length;
    expect(same / c.count).toBeGreaterThan(0.99);
  });

  it('writes a range of the columns', () => {
    const c = columns(10, 3);
    expect(new TextDecoder().decode(gpsSixBytes(c, 4, 6))).toBe(
      new TextDecoder()
        .decode(gpsSixBytes(c, 0, 10))
        .split('\n')
        .slice(4, 6)
        .join('\n') + '\n',
    );
  });
});
