import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportAnswer } from '#core/contracts/imports.contract.ts';
import type { SharedView } from '#core/contracts/shares.contract.ts';
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { readImport } from '#core/imports/test-support/read-import.ts';
import { writeGpxOfTrace, writeSpeedAngle } from '#core/imports/test-support/writers.ts';
import { buildRacingLine, generateSession } from '#core/sim/session-generator.ts';
import { gateAcross } from '#core/tracks/gate.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';
import { trackCatalogue } from '../tracks/track-catalogue';

// Issue 35: every real recording in server/test/real-recordings imported through the HTTP API,
// what Voltas gives set against what the logger itself gave (the tables come from each folder's
// NOTES.md). What a rider should get and does not today is `it.fails`, naming the bug: when the
// bug is fixed, that test fails, and becomes a plain `it`. What is not settled is `it.todo`.

interface Recording {
  folder: string;
  file: string;
  format: ImportAnswer['format'];
  track: string;
  date: string;
  /** The logger's own laps, as it gave them (NOTES.md). */
  loggerLaps: number[];
  /** The logger's laps a rider should see as flying laps (with that time; none where that is not settled), and how close Voltas's GPS time must be. */
  flying: number[];
  tolerance: number;
  /** Why `flying` does not hold today (the test is then `it.fails`). */
  flyingBug?: string;
  /** Why a lap holding a stop is called flying today (the test is then `it.fails`). */
  stopBug?: string;
  /** What is not settled about this file (an `it.todo`). */
  unsettled?: string;
  /** How many of the logger's laps no GPS lap matches (said in a warning); none where absent. */
  unmatched?: number;
  /** The laps screen's laps ('A1 177.527'), in one heat. */
  listed: string[];
}

const recordings: Recording[] = [
  {
    // TrackAddict 4.8.0 (iOS, 1 Hz GPS). Logger: lap 0 2:03.202 (from the start of the recording), lap 1 2:57.527.
    // Voltas: one flying lap with the logger's 177.527 (GPS 177.491 beside it); the pieces around it are the out- and in-lap.
    folder: 'trackaddict-goodwood-2022',
    file: 'Log-20220531-085930 Goodwood Motorcircuit - 2.57.527.csv.gz',
    format: 'trackaddict',
    track: 'Goodwood Motor Circuit',
    date: '31052022',
    loggerLaps: [177.527],
    flying: [177.527],
    tolerance: 0.1, // a 1 Hz GPS
    // 8 s of rolling in the paddock and a stand of two minutes before going out: no heat of their own.
    listed: ['A1 177.527'],
  },
  {
    // TrackAddict 4.3.5 (Android, 1 Hz GPS). Logger: lap 0 155.138 (from the start), 444.553, 107.089, 116.145, 357.906;
    // every one passes through the pit lane beside the straight (NOTES.md).
    // Its `# End Point` lies by the straight, but the phone's lap boundaries are 70-100 m from it
    // (7-13 s before the GPS passes it): timed at the line where its Lap column changes instead
    // (issue 59), its 107.089 and 116.145 are listed with its own times; its 444.553 and 357.906
    // hold stands in the pits, which end Voltas's laps (in- and out-laps): 2 of its laps unmatched.
    // After its 116.145 the GPS passes that line again 101.612 s later, on its way into the pits
    // (TrackAddict counted no lap there): a flying lap of the GPS's alone.
    folder: 'trackaddict-stc-2019',
    file: 'STC_log.csv.gz',
    format: 'trackaddict',
    track: 'stc-motodrom',
    date: '05062019',
    loggerLaps: [444.553, 107.089, 116.145, 357.906],
    flying: [],
    tolerance: 1, // a 1 Hz GPS at a line TrackAddict placed itself
    listed: ['A4 107.089', 'A5 116.145', 'A6 101.612'],
    unmatched: 2,
  },
  {
    // RaceChrono Pro 9.1.3 CSV v3 (25 Hz GPS), one lap exported with ~4 s either side. Logger: lap 9 76.329.
    // Voltas: one flying lap with the logger's 76.329 (GPS 76.335 beside it); the 4 s either side are no lap.
    folder: 'racechrono-tianma-lap9',
    file: 'session_20251231_111318_tianma_lap9_v3.csv.gz',
    format: 'racechrono',
    track: 'Shanghai Tianma Circuit',
    date: '31122025',
    loggerLaps: [76.329],
    flying: [76.329],
    tolerance: 0.02,
    listed: ['A1 76.329'],
  },
  {
    // RaceChrono Pro 9.1.3 CSV v3 (25 Hz GPS). Logger: lap 13 75.934.
    // Voltas: one flying lap with the logger's 75.934 (GPS 75.937 beside it).
    folder: 'racechrono-tianma-lap13',
    file: 'session_20251231_111959_tianma_lap13_v3.csv.gz',
    format: 'racechrono',
    track: 'Shanghai Tianma Circuit',
    date: '31122025',
    loggerLaps: [75.934],
    flying: [75.934],
    tolerance: 0.02,
    listed: ['A1 75.934'],
  },
];

let server: TestServer;
const answers = new Map<string, ImportAnswer>();
const riders = new Map<string, Browser>();

/** A recording imported by `rider`, through the API, as its file is. */
async function importAs(rider: Browser, r: Recording): Promise<ImportAnswer> {
  const res = await rider.request(`/api/imports?filename=${encodeURIComponent(r.file)}`, {
    method: 'POST',
    body: new Uint8Array(readFileSync(new URL(`../../../test/real-recordings/${r.folder}/${r.file}`, import.meta.url))),
    headers: { 'content-type': 'application/octet-stream' },
  });
  const body = (await res.json()) as ImportAnswer;
  if (res.status !== 201) throw new Error(`${r.folder}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** A link `rider` makes to a session (or one of its laps): what anyone opening it reads, each time asked. */
async function shareLink(
  rider: Browser,
  to: ImportAnswer['session'] & { lap?: string },
): Promise<() => Promise<SharedView>> {
  const made = await rider.request('/api/shares', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl },
    body: JSON.stringify(to),
  });
  const token = new URL(((await made.json()) as { url: string }).url).pathname.split('/').pop()!;
  return async () => (await (await server.fetch(`${server.baseUrl}/api/shared/${token}`)).json()) as SharedView;
}

beforeAll(async () => {
  server = await startTestServer({}, { inject: true });
  // Each recording by a rider of its own, so that two files of one day and track stay two sessions.
  for (const [k, r] of recordings.entries()) {
    const rider = new Browser(server);
    await rider.signIn(`piloto${k}@example.com`);
    answers.set(r.folder, await importAs(rider, r));
    riders.set(r.folder, rider);
  }
});
afterAll(async () => {
  await server.close();
});

for (const r of recordings) {
  describe(`${r.folder} (${r.file})`, () => {
    const answer = () => answers.get(r.folder)!;
    /** A read of the imported session (`laps`, `track-analysis`), as its rider. */
    const read = async <T>(what: string): Promise<T> => {
      const { device, track, date } = answer().session;
      const at = `/api/devices/${device}/sessions/${encodeURIComponent(track)}/${date}/${what}`;
      return (await (await riders.get(r.folder)!.request(at)).json()) as T;
    };

    it('imports: its format, the track it ran on, the day', () => {
      expect(answer().format).toBe(r.format);
      expect(answer().session).toMatchObject({ track: r.track, date: r.date });
    });

    it('the logger’s laps are the ones it gave', () => {
      expect(answer().loggerLaps).toEqual(r.loggerLaps);
    });

    // Issue 59: where the logger's laps and the GPS's disagree (a lap of the logger's that no GPS lap
    // matches, at the logger's line or the track's), the answer says how many.
    it(`says how many of the logger’s laps no GPS lap matches: ${r.unmatched ?? 0}`, () => {
      const said = answer().warnings.find((w) => w.code === 'loggerLapsUnmatched');
      expect(said?.count ?? 0).toBe(r.unmatched ?? 0);
    });

    // `flyingBug` names why this does not hold today; a file whose flying laps are not settled has an it.todo instead.
    if (r.flying.length)
      (r.flyingBug ? it.fails : it)(
        `the logger’s flying laps are Voltas’s flying laps, within ${r.tolerance} s, with the logger’s time; the best is among them`,
        () => {
          const flying = answer().laps.filter((l) => l.kind === 'flying');
          for (const seconds of r.flying) {
            const twin = flying.find((l) => Math.abs(l.seconds - seconds) <= r.tolerance);
            expect(twin, `${seconds} s`).toBeDefined();
            expect(twin!.loggerSeconds).toBe(seconds);
          }
          expect(Math.min(...r.flying.map((s) => Math.abs(s - answer().bestLapSeconds!)))).toBeLessThanOrEqual(
            r.tolerance,
          );
        },
      );

    // `stopBug` names why this does not hold today.
    (r.stopBug ? it.fails : it)(
      'no lap holding a stop in the pits is a flying lap (none is over 1.5× the best)',
      () => {
        const flying = answer().laps.filter((l) => l.kind === 'flying');
        const best = Math.min(...flying.map((l) => l.seconds));
        for (const l of flying) expect(l.seconds, `lap ${l.heat}${l.number}`).toBeLessThan(1.5 * best);
      },
    );

    it('one truth: the laps screen, the track analysis, a share link, ‘Minhas sessões’ and the records show the same best lap', async () => {
      const rider = riders.get(r.folder)!;
      const { track, date } = answer().session;
      const expected = answer().bestLapSeconds;
      const laps = await read<{ bestLapMs: number | null }>('laps');
      const analysis = await read<TrackAnalysisResponse>('track-analysis');
      const listedBest = analysis.laps.find((l) => l.index === analysis.bestLap);
      const mine = (await (await rider.request('/api/sessions')).json()) as {
        sessions: { track: string; date: string; bestLapMs: number | null }[];
      };
      const records = (await (await rider.request('/api/sessions/records')).json()) as {
        records: { track: string; lapTimeMs: number }[];
      };
      const shared = await (await shareLink(rider, answer().session))();
      const ms = expected === null ? null : Math.round(expected * 1000);
      expect(laps.bestLapMs).toBe(ms);
      expect(listedBest?.seconds ?? null).toBe(expected);
      expect(mine.sessions.find((x) => x.track === track && x.date === date)?.bestLapMs).toBe(ms);
      expect(records.records.find((x) => x.track === track)?.lapTimeMs ?? null).toBe(ms);
      expect(shared.bestLapSeconds).toBe(expected);
      // A piece is never shown with a lap time.
      for (const l of analysis.laps) if (l.kind === 'partial') expect(l.seconds).toBeNull();
    });

    it(`one heat, A, as the rider rode it: ${r.listed.join(', ')}; a shared link names each lap once`, async () => {
      const rider = riders.get(r.folder)!;
      const { track, date } = answer().session;
      const laps = await read<{ laps: { heat: string; lapCount: number; lapSeconds: number }[] }>('laps');
      expect(laps.laps.map((l) => `${l.heat}${l.lapCount} ${l.lapSeconds}`)).toEqual(r.listed);
      const mine = (await (await rider.request('/api/sessions')).json()) as {
        sessions: { track: string; date: string; heats: number }[];
      };
      expect(mine.sessions.find((x) => x.track === track && x.date === date)?.heats).toBe(1);
      const shared = await (await shareLink(rider, answer().session))();
      const names = shared.laps.map((l) => `${l.heat}${l.number}`);
      expect(names).toEqual([...new Set(names)]);
    });

    it('each lap’s sectors add up to its time, the logger’s where it gave one: a lone lap is its own theoretical best', async () => {
      const laps = await read<{
        laps: { lapTimeMs: number; sectors: { timerMs: number }[] }[];
        bestLapMs: number | null;
        theoreticalBestMs: number | null;
      }>('laps');
      expect(laps.laps.length).toBeGreaterThan(0);
      for (const l of laps.laps) expect(l.sectors.reduce((sum, x) => sum + x.timerMs, 0)).toBe(l.lapTimeMs);
      if (laps.laps.length === 1) expect(laps.theoreticalBestMs).toBe(laps.bestLapMs);
    });

    // The laps screen shows it beside the best lap; a phone's 1 Hz fixes once made every section untrusted.
    // Issue 60: it is built from the times the rider sees (the logger's 75.934 beside GPS 75.937), so
    // it is never slower than the best lap as listed, and its pieces add up to it.
    if (r.flying.length)
      it('the ideal lap is there: the best of each section, never slower than the best lap as listed', async () => {
        const analysis = await read<TrackAnalysisResponse>('track-analysis');
        const best = analysis.laps.find((l) => l.index === analysis.bestLap)!.seconds!;
        expect(analysis.idealLapSeconds).not.toBeNull();
        expect(analysis.idealLapSeconds!).toBeLessThanOrEqual(best);
        expect(analysis.idealLapSeconds!).toBeGreaterThan(best - 1);
        const pieces = analysis.idealLap.reduce((sum, s) => sum + s.seconds!, 0);
        expect(pieces).toBeCloseTo(analysis.idealLapSeconds!, 3);
        const mine = (await (await riders.get(r.folder)!.request('/api/sessions')).json()) as {
          sessions: { date: string; idealLapMs: number | null; bestLapMs: number | null }[];
        };
        const listed = mine.sessions.find((x) => x.date === answer().session.date)!;
        expect(listed.idealLapMs!).toBeLessThanOrEqual(listed.bestLapMs!);
      });

    // The catalogue's Spreewaldring outline is another layout in the infield: the laps leave it
    // two-thirds of the way round, so where they were after that is unknown (no 0.00 s pieces).
    if (r.folder === 'trackaddict-stc-2019')
      it('a lap that leaves the outline’s line counts no section: no ideal lap made of 0.00 s pieces', async () => {
        const analysis = await read<TrackAnalysisResponse>('track-analysis');
        expect(analysis.idealLapSeconds).toBeNull();
        expect(analysis.idealLap.map((s) => s.seconds)).toEqual(analysis.idealLap.map(() => null));
      });

    // Issue 59: TrackAddict cut its laps 70-100 m before its own End Point, so no line there gives
    // them; timed where its Lap column changes, the laps listed are its own (the column's changes
    // are 108.0 and 116.0 s apart at one fix a second; its `# Lap` lines say 1:47.089 and 1:56.145).
    if (r.folder === 'trackaddict-stc-2019')
      it('its own laps, 108.0 and 116.0 s (±1 s), with its times in the answer and in the track analysis', async () => {
        const own = answer().laps.filter((l) => l.loggerSeconds !== null);
        expect(own.map((l) => l.seconds)).toEqual([107.089, 116.145]);
        [108.0, 116.0].forEach((s, k) => expect(Math.abs(own[k]!.seconds - s)).toBeLessThanOrEqual(r.tolerance));
        // Kinds from what happened on track: both were ridden line to line without a stand.
        expect(own.map((l) => l.kind)).toEqual(['flying', 'flying']);
        const analysis = await read<TrackAnalysisResponse>('track-analysis');
        const logger = analysis.laps.filter((l) => l.timeSource === 'logger');
        expect(logger.map((l) => l.seconds)).toEqual([107.089, 116.145]);
        for (const l of logger) {
          expect(Math.abs(l.gpsSeconds - l.seconds!)).toBeLessThanOrEqual(r.tolerance);
          expect(l.differs).toBe(Math.abs(l.seconds! - l.gpsSeconds) > 0.05);
        }
      });

    if (r.unsettled) it.todo(`not settled: ${r.unsettled}`);
  });
}

// RaceChrono exports one lap a file: a rider who imports both Tianma laps of that morning has one
// session of two runs, each a lap with ~4 s either side. The laps screen, the track analysis and the
// import's answer must be the same two flying laps (the first run's lap was once a piece in the
// analysis: its run ended a second after its last line, and that sample went to the next heat).
describe('the two Tianma laps imported by one rider: one session, the same laps everywhere', () => {
  it('A1 76.329 and B1 75.934, flying, each with its GPS time beside it', async () => {
    const rider = new Browser(server);
    await rider.signIn('piloto-dois-arquivos@example.com');
    let answer: ImportAnswer | undefined;
    for (const r of recordings.filter((x) => x.folder.startsWith('racechrono-tianma')))
      answer = await importAs(rider, r);
    expect(answer!.files).toBe(2);
    const { device, track, date } = answer!.session;
    const at = `/api/devices/${device}/sessions/${encodeURIComponent(track)}/${date}`;
    const listed = (await (await rider.request(`${at}/laps`)).json()) as {
      laps: { heat: string; lapCount: number; lapSeconds: number; kind: string }[];
    };
    const analysis = (await (await rider.request(`${at}/track-analysis`)).json()) as TrackAnalysisResponse;
    const expected = ['A1 76.329 flying', 'B1 75.934 flying'];
    expect(listed.laps.map((l) => `${l.heat}${l.lapCount} ${l.lapSeconds} ${l.kind}`)).toEqual(expected);
    expect(analysis.laps.map((l) => `${l.heat}${l.number} ${l.seconds} ${l.kind}`)).toEqual(expected);
    expect(answer!.laps.map((l) => `${l.heat}${l.number} ${l.seconds} ${l.kind}`)).toEqual(expected);
    expect(analysis.laps.map((l) => Math.round(l.gpsSeconds * 1000))).toEqual([76335, 75937]);
    // The session's best everywhere else: 'Minhas sessões' and the records.
    const mine = (await (await rider.request('/api/sessions')).json()) as { sessions: { bestLapMs: number | null }[] };
    const records = (await (await rider.request('/api/sessions/records')).json()) as {
      records: { lapTimeMs: number }[];
    };
    expect(mine.sessions.map((x) => x.bestLapMs)).toEqual([75934]);
    expect(records.records.map((x) => x.lapTimeMs)).toEqual([75934]);
    // What both files say (RaceChrono's lean is calculated, not measured) is said once.
    expect(answer!.warnings.map((w) => w.code)).toEqual(['leanCalculated']);
  });

  it('a link to one lap shows that lap after a file from earlier that day numbers the heats again', async () => {
    const rider = new Browser(server);
    await rider.signIn('piloto-link-da-volta@example.com');
    const [lap9, lap13] = recordings.filter((x) => x.folder.startsWith('racechrono-tianma'));
    // Lap 13 first: alone it is A1; the rider shares it.
    const first = await importAs(rider, lap13!);
    expect(first.laps.map((l) => `${l.heat}${l.number} ${l.seconds}`)).toEqual(['A1 75.934']);
    const view = await shareLink(rider, { ...first.session, lap: 'A1' });
    const shown = async () => (await view()).laps.map((l) => `${l.heat}${l.number} ${l.seconds}`);
    expect(await shown()).toEqual(['A1 75.934']);
    // Lap 9, ridden earlier, becomes A1; lap 13 is now B1, and so is the link, in the rider's list too.
    const second = await importAs(rider, lap9!);
    expect(second.laps.map((l) => `${l.heat}${l.number} ${l.seconds}`)).toEqual(['A1 76.329', 'B1 75.934']);
    expect(await shown()).toEqual(['B1 75.934']);
    const mine = (await (await rider.request('/api/shares')).json()) as { shares: { lap: string | null }[] };
    expect(mine.shares.map((x) => x.lap)).toEqual(['B1']);
  });
});

// Issue 59: a SpeedAngle .sa has its start on the logger's local clock, a GPX has UTC. At Grattan
// (Michigan, UTC-4 in August) 15° of longitude an hour read the .sa as UTC-6: two hours late, so
// the same ride as GPX was another ride, and the track analysis listed every lap twice. There is
// no openly licensed .sa recording (assets/import-samples/SOURCES.md): the ride is generated on
// the catalogue's real Grattan outline, written as the logger writes it, and the GPX is what a
// converter makes of the .sa: its fixes as read, at their UTC times.
describe('a SpeedAngle ride at Grattan imported also as GPX: its laps once', () => {
  const catalogued = trackCatalogue().search('Grattan Raceway Park')[0]!;
  const grattan = { name: 'Grattan', points: catalogued.outline, startFinish: catalogued.startFinish };
  // 10 Aug 2024 from 12:00 on the logger's clock (16:00 UTC): one heat, five flying laps.
  const ride = generateSession(grattan, {
    seed: 59,
    heats: 1,
    lapsPerHeat: [5, 5],
    gpsNoise: 0.2,
    startTimeMs: 16 * 3_600_000,
  });
  const line = buildRacingLine(grattan);
  const [lat, lon] = line.proj.toLatLon(line.x[0]!, line.y[0]!);
  const gate = gateAcross({ lat, lon }, line.x[1]! - line.x[0]!, line.y[1]! - line.y[0]!);
  // Written on the logger's clock, Eastern Daylight Time, whatever Voltas thinks of the place.
  const sa = writeSpeedAngle(parseGpsSix(ride.gpsSix).value, { y: 2024, m: 8, d: 10 }, ride.laps, gate, {
    trackName: 'GRATTAN',
    utcOffsetHours: -4,
  });
  const startUtcMs = Date.UTC(2024, 7, 10, 16);

  async function gpxOfSa(): Promise<string> {
    const read = await readImport([new TextEncoder().encode(sa)], 'GRATTAN 081024.sa');
    if (read.kind !== 'trace') throw new Error('expected a trace');
    // The converter's fixes are the .sa's, at their real UTC times (from 16:00 UTC, 10 Hz).
    return writeGpxOfTrace(read.file.trace, startUtcMs);
  }

  async function importText(rider: Browser, name: string, text: string): Promise<ImportAnswer> {
    const res = await rider.request(`/api/imports?filename=${encodeURIComponent(name)}`, {
      method: 'POST',
      body: text,
      headers: { 'content-type': 'application/octet-stream' },
    });
    const body = (await res.json()) as ImportAnswer;
    if (res.status !== 201) throw new Error(`${name}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    return body;
  }

  for (const order of [['sa', 'gpx'] as const, ['gpx', 'sa'] as const])
    it(`${order.join(' then ')}: one session of 10 Aug, five flying laps with the logger’s times, not ten`, async () => {
      const rider = new Browser(server);
      await rider.signIn(`piloto-grattan-${order[0]}@example.com`);
      const gpx = await gpxOfSa();
      let answer: ImportAnswer | undefined;
      for (const kind of order)
        answer =
          kind === 'sa'
            ? await importText(rider, 'GRATTAN 081024.sa', sa)
            : await importText(rider, 'Grattan.gpx', gpx);
      expect(answer!.files).toBe(2);
      expect(answer!.warnings.map((w) => w.code)).toContain('sameRecording');
      const { device, track, date } = answer!.session;
      expect(date).toBe('10082024');
      const analysis = (await (
        await rider.request(`/api/devices/${device}/sessions/${encodeURIComponent(track)}/${date}/track-analysis`)
      ).json()) as TrackAnalysisResponse;
      const flying = analysis.laps.filter((l) => l.kind === 'flying');
      const own = ride.laps.filter((l) => l.lapCount >= 1 && l.lapCount <= 5).map((l) => l.lapSeconds);
      expect(flying.map((l) => l.seconds)).toEqual(own);
      expect(flying.every((l) => l.timeSource === 'logger' || l.timeSource === 'gps')).toBe(true);
      const names = analysis.laps.map((l) => `${l.heat}${l.number}`);
      expect(names).toEqual([...new Set(names)]);
      const mine = (await (await rider.request('/api/sessions')).json()) as { sessions: { heats: number }[] };
      expect(mine.sessions.map((x) => x.heats)).toEqual([1]);
    });
});
