import { describe, expect, it } from 'vitest';
import { WEAK_FIX_SATELLITES } from '../../../../core/analysis/gps-analysis';
import { allocGpsColumns, GPS_COLUMN_KEYS, type GpsColumns } from '../../../../core/formats/gps-columns';
import { parseGpsSix } from '../../../../core/formats/gps-six';
import { asWritten } from '../../../../core/formats/gps-six-write';
import { gpsSixText, lapNumbering, sessionColumns, sessionTrace } from '../../../../core/imports/to-session';
import { TraceBuilder, type ImportedTrace } from '../../../../core/imports/trace';
import { haversineM } from '../../../../core/sim/geo';
import { buildRacingLine, generateSession } from '../../../../core/sim/session-generator';
import { gateAcross } from '../../../../core/tracks/gate';
import { timeLaps, type TimedLap } from '../../../../core/tracks/lap-timing';
import { loadTracks } from '../../lib/track-files';

// An import's session columns are made a batch at a time from its trace (a long file is never held
// twice whole). The plain form below, every column whole at once, is their oracle.

const DAY_MS = 86_400_000;
const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;

/** The session's columns whole: the trace's values as written, then each lap's heat, number and meters. */
function plainColumns(t: ImportedTrace, laps: readonly TimedLap[]): GpsColumns {
  const c = allocGpsColumns(t.count);
  const at = (i: number) => Math.min(t.count - 1, Math.max(0, i));
  for (let i = 0; i < t.count; i++) {
    let speed = t.speedKmh[i]!;
    if (Number.isNaN(speed)) {
      const [a, b] = [at(i - 1), at(i + 1)];
      const dt = (t.timeMs[b]! - t.timeMs[a]!) / 1000;
      speed = dt > 0 ? (haversineM(t.lat[a]!, t.lon[a]!, t.lat[b]!, t.lon[b]!) / dt) * 3.6 : 0;
    }
    const lean = Number.isNaN(t.leanDeg[i]!) ? 0 : t.leanDeg[i]!;
    c.line[i] = i + 1;
    c.lat[i] = asWritten(t.lat[i]!, 7);
    c.lon[i] = asWritten(t.lon[i]!, 7);
    c.speed[i] = asWritten(Math.min(1000, speed), 1);
    c.satellites[i] = t.satellites[i]! < 0 ? WEAK_FIX_SATELLITES : t.satellites[i]!;
    c.timeMs[i] = ((Math.round(t.timeMs[i]!) % DAY_MS) + DAY_MS) % DAY_MS;
    c.roll[i] = asWritten(lean, 1);
    c.leanFiltered[i] = asWritten(lean, 1);
  }
  c.count = t.count;
  const numbers = lapNumbering(laps);
  // Each piece from where the one before it ended (the samples between two belong to the later);
  // after the last, the next lap of its heat.
  let end = 0;
  let n = { heat: 0, lapCount: -1, first: 0 };
  for (const lap of laps) {
    n = numbers.get(lap.number)!;
    const to = Math.min(c.count - 1, lap.end.index) + 1;
    c.heat.fill(n.heat, end, to);
    c.lapCount.fill(n.lapCount, end, to);
    c.firstLap.fill(n.first, end, to);
    end = to;
  }
  c.heat.fill(n.heat, end);
  c.lapCount.fill(n.lapCount + 1, end);
  c.firstLap.fill(0, end);
  let meters = 0;
  for (let i = 0; i < c.count; i++) {
    if (i === 0 || c.lapCount[i] !== c.lapCount[i - 1] || c.heat[i] !== c.heat[i - 1]) meters = 0;
    else meters += haversineM(c.lat[i - 1]!, c.lon[i - 1]!, c.lat[i]!, c.lon[i]!);
    c.meterSum[i] = Math.min(2_000_000_000, Math.round(meters));
  }
  return c;
}

/** A generated session as a logger's file would give it: some speeds, satellites and leans missing. */
function importedTrace(): ImportedTrace {
  const gen = generateSession(interlagos, { seed: 3, hz: 10, heats: 2, lapsPerHeat: [3, 4], gpsNoise: 0.3 });
  const c = parseGpsSix(gen.gpsSix).value;
  const out = new TraceBuilder();
  // Moved so that midnight UTC falls mid-session: times of day roll over.
  // A file has no heats: the second one starts after a pause of two minutes, a run of its own.
  const shift = Date.UTC(2026, 10, 16) - c.timeMs[c.count >> 1]!;
  for (let i = 0; i < c.count; i++) {
    out.addFix(
      shift + c.timeMs[i]! + (c.heat[i]! > 0 ? 120_000 : 0),
      c.lat[i]!,
      c.lon[i]!,
      i % 3 ? c.speed[i]! : NaN,
      i % 5 ? c.satellites[i]! : NaN,
      i % 7 ? c.roll[i]! : NaN,
    );
  }
  return out.trace();
}

function gate() {
  const line = buildRacingLine(interlagos);
  const [lat, lon] = line.proj.toLatLon(line.x[0]!, line.y[0]!);
  return gateAcross({ lat, lon }, line.x[1]! - line.x[0]!, line.y[1]! - line.y[0]!);
}

describe('an import’s session columns, a batch at a time', () => {
  const raw = importedTrace();
  const copy = (t: ImportedTrace): ImportedTrace => ({
    ...t,
    timeMs: t.timeMs.slice(),
    lat: t.lat.slice(),
    lon: t.lon.slice(),
    speedKmh: t.speedKmh.slice(),
    satellites: t.satellites.slice(),
    leanDeg: t.leanDeg.slice(),
  });
  const trace = sessionTrace(copy(raw));
  const laps = timeLaps(trace, gate());

  it('times laps on the session trace (the test has laps, heats and a midnight to cross)', () => {
    expect(laps.filter((l) => l.complete).length).toBeGreaterThan(5);
    expect(new Set(laps.map((l) => l.run)).size).toBe(2);
  });

  for (const size of [1, 999, 16_384, 1_000_000]) {
    it(`in batches of ${size}: every column as the plain whole form makes it`, () => {
      const whole = plainColumns(raw, laps);
      let from = 0;
      for (const c of sessionColumns(trace, laps, lapNumbering(laps), size)) {
        for (const k of GPS_COLUMN_KEYS) expect(Array.from(c[k].subarray(0, c.count)), k).toEqual(Array.from(whole[k].subarray(from, from + c.count)));
        from += c.count;
      }
      expect(from).toBe(raw.count);
    });
  }

  it('its gps.six text is what the device parser reads back as those columns', () => {
    const back = parseGpsSix(gpsSixText(sessionColumns(trace, laps, lapNumbering(laps), 500)));
    expect(back.problems).toEqual([]);
    const whole = plainColumns(raw, laps);
    for (const k of GPS_COLUMN_KEYS) expect(Array.from(back.value[k].subarray(0, back.value.count)), k).toEqual(Array.from(whole[k].subarray(0, whole.count)));
  });

  it('making the session trace again changes nothing; an empty trace has no batch', () => {
    const once = copy(raw);
    sessionTrace(once); // in place
    const twice = copy(once);
    sessionTrace(twice);
    for (const k of ['timeMs', 'lat', 'lon', 'speedKmh', 'satellites', 'leanDeg'] as const) expect(Array.from(twice[k]), k).toEqual(Array.from(once[k]));
    expect(Array.from(once.speedKmh)).toEqual(Array.from(trace.speed));
    expect([...sessionColumns(sessionTrace(new TraceBuilder().trace()), [], new Map())]).toEqual([]);
  });
});
