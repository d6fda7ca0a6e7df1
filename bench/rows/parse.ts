/**
 * The parsing and analysis rows: gps.six against uDSV and a newline scan (information), the
 * growth rows, and the track analysis against the basic per-lap analysis.
 */
import { isUtf8 } from 'node:buffer';
import { inferSchema, initParser } from 'udsv';
import { analyzeGps } from '#core/analysis/gps-analysis.ts';
import { GpsSixStream } from '#core/formats/gps-six-stream.ts';
import { MAX_REPORTED_PROBLEMS } from '#core/formats/six-lines.ts';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { parseLapSix } from '#core/formats/lap-six.ts';
import { generateSession, type GeneratedSession, type TrackGeometry } from '#core/sim/session-generator.ts';
import { studySession } from '#core/tracks/corner-study.ts';
import { analyzeTrack } from '#core/tracks/track-analysis.ts';
import { definitionFromCatalogue } from '#core/tracks/track-definition.ts';
import { trackCatalogue } from '#server/modules/tracks/track-catalogue.ts';
import { fmt, median, result, rows, timeMedian } from './table';

/** The sessions the rows read: `big` ~110k samples, `sixty` 60 laps, both at Interlagos. */
export interface ParseData {
  quick: boolean;
  interlagos: TrackGeometry;
  big: GeneratedSession;
  sixty: GeneratedSession;
}

export function benchParsing(data: ParseData): void {
  benchParse(data);
  benchGrowth(data);
  benchTrackAnalysis(data);
  benchCornerStudy(data);
}

function benchParse({ quick: QUICK, big, sixty }: ParseData) {
  const bytes = Buffer.from(big.gpsSix);
  const mb = bytes.length / 1e6;
  const runs = QUICK ? 9 : 25;
  // (a) the memory-speed ceiling: a newline scan, as a JS byte loop and as Buffer.indexOf (memchr).
  const scanLoop = () => {
    let n = 0;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) n++;
    return n;
  };
  const scanMemchr = () => {
    let n = 0;
    for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n++;
    return n;
  };
  // (b) uDSV, the fastest general CSV parser for JS, on the same data as CSV into typed columns.
  const csv = `lat,lon,speed,sats,time,lap,first,heat,roll,lean,meters\n${big.gpsSix.replace(/\|/g, ',')}`;
  const parser = initParser(inferSchema(csv));
  const udsv = () => parser.typedCols(csv);
  const ours = () => parseGpsSix(bytes);
  // The upload's parse: the body in 64 KB chunks as the server receives it, NUL and UTF-8 checks
  // included, columns handed over a batch at a time into reused memory.
  const upload = () => {
    const stream = new GpsSixStream(() => {}, isUtf8);
    for (let o = 0; o < bytes.length; o += 65_536) stream.push(bytes.subarray(o, o + 65_536));
    return stream.end();
  };
  // Interleaved: each run times all four back to back, so a slow spell of this shared machine
  // hits baseline and parser alike; the ratios are the medians of the per-run ratios.
  const t = {
    upload: [] as number[],
    vsScanUpload: [] as number[],
    loop: [] as number[],
    memchr: [] as number[],
    udsv: [] as number[],
    ours: [] as number[],
    vsScan: [] as number[],
    vsUdsv: [] as number[],
  };
  const time = (fn: () => unknown) => {
    const t0 = performance.now();
    fn();
    return performance.now() - t0;
  };
  for (const fn of [scanLoop, scanMemchr, udsv, ours, upload]) fn(); // warm-up
  for (let r = 0; r < runs; r++) {
    const loopMs = time(scanLoop);
    const memchrMs = time(scanMemchr);
    const udsvMs = time(udsv);
    const oursMs = time(ours);
    const uploadMs = time(upload);
    t.upload.push(uploadMs);
    t.vsScanUpload.push(Math.min(loopMs, memchrMs) / uploadMs);
    t.loop.push(loopMs);
    t.memchr.push(memchrMs);
    t.udsv.push(udsvMs);
    t.ours.push(oursMs);
    // The ceiling is the faster of the two scans: the conservative baseline.
    t.vsScan.push(Math.min(loopMs, memchrMs) / oursMs);
    t.vsUdsv.push(udsvMs / oursMs);
  }
  const oursMs = median(t.ours);
  const scanMs = Math.min(median(t.loop), median(t.memchr));
  // With 1 % bad lines: every one left out and reported (the list stops at MAX_REPORTED_PROBLEMS
  // with a last 'tooManyProblems' entry, so a broken file cannot flood the screen).
  const lines = big.gpsSix.split('\n');
  let bad = 0;
  for (let i = 50; i < lines.length; i += 100, bad++) lines[i] = lines[i]!.replace('|', '|x');
  const dirty = Buffer.from(lines.join('\n'));
  let dirtyResult = parseGpsSix(dirty);
  const dirtyMs = timeMedian(() => (dirtyResult = parseGpsSix(dirty)), runs);
  const leftOut = dirtyResult.lines - dirtyResult.value.count;
  const listed = dirtyResult.problems.filter((p) => p.reason !== 'tooManyProblems').length;
  const capped = dirtyResult.problems.some((p) => p.reason === 'tooManyProblems');
  const lapText = Buffer.from(sixty.lapSix.repeat(Math.ceil(2e6 / sixty.lapSix.length)));
  const lapMs = timeMedian(() => parseLapSix(lapText.toString('utf8')), runs);
  result.parse_vs_udsv = median(t.vsUdsv);
  result.parse_vs_scan = median(t.vsScan);
  result.parse_upload_vs_scan = median(t.vsScanUpload);
  rows.push(
    [
      'parse gps.six',
      `${fmt(mb / (oursMs / 1000), 0)} MB/s (${big.sampleCount} samples, ${fmt(oursMs)} ms)`,
      `uDSV ${fmt(mb / (median(t.udsv) / 1000), 0)} MB/s`,
      `${fmt(result.parse_vs_udsv, 2)}×`,
      '(information)',
    ],
    [
      '',
      '',
      `newline scan ${fmt(mb / (scanMs / 1000), 0)} MB/s (JS byte loop ${fmt(mb / (median(t.loop) / 1000), 0)})`,
      `${fmt(result.parse_vs_scan, 3)}×`,
      '(information)',
    ],
    [
      'parse gps.six as uploaded',
      `${fmt(mb / (median(t.upload) / 1000), 0)} MB/s`,
      '',
      `${fmt(result.parse_upload_vs_scan, 3)}×`,
      '(information)',
    ],
    [
      'parse gps.six, 1 % bad lines',
      `${fmt(mb / (dirtyMs / 1000), 0)} MB/s; ${bad} bad lines, ${leftOut} left out, ${listed} listed${capped ? ` + 'tooManyProblems' (cap ${MAX_REPORTED_PROBLEMS})` : ''}`,
      '',
      leftOut === bad && (capped || listed === bad) ? 'all caught' : 'MISSED',
      'every bad line caught',
    ],
    ['parse lap.six', `${fmt(lapText.length / 1e6 / (lapMs / 1000), 0)} MB/s`, '', '', ''],
  );
}

function benchGrowth({ quick: QUICK, big }: ParseData) {
  const base = big.gpsSix;
  const perSample = base.split('\n').length - 1;
  for (const n of [10_000, 100_000, 1_000_000]) {
    const reps = Math.ceil(n / perSample);
    const text = Buffer.from(n <= perSample ? base.split('\n').slice(0, n).join('\n') : base.repeat(reps));
    const parsed = parseGpsSix(text).value;
    const runs = n >= 1_000_000 ? (QUICK ? 2 : 3) : QUICK ? 3 : 7;
    const parseMs = timeMedian(() => parseGpsSix(text), runs);
    const analysisMs = timeMedian(() => analyzeGps(parsed), runs);
    rows.push([
      `growth ${parsed.count} samples`,
      `parse ${fmt(parseMs)} ms, analysis ${fmt(analysisMs)} ms`,
      '',
      `${fmt(((parseMs + analysisMs) * 1e6) / parsed.count, 0)} ns/sample`,
      'linear',
    ]);
  }
}

/**
 * Lap timing at the gate, corners, segments, corner figures and the ideal lap (`analyzeTrack`)
 * against the basic per-lap analysis (`analyzeGps`) on the same samples: real sessions of 10k,
 * 100k and ~1M samples at Interlagos (the 1M one at 25 Hz, four long heats).
 */
function benchTrackAnalysis({ quick: QUICK, interlagos, big }: ParseData) {
  const found = trackCatalogue().find(parseGpsSix(big.gpsSix).value)!;
  const definition = definitionFromCatalogue(found.track.outline, found.track.startFinish, found.forward);
  const sessions = [
    generateSession(interlagos, { seed: 4, heats: 1, lapsPerHeat: [6, 6] }),
    big,
    generateSession(interlagos, { seed: 5, hz: 25, heats: 4, lapsPerHeat: [80, 80] }),
  ];
  const traces = sessions.map((session) => parseGpsSix(session.gpsSix).value);
  // Both compiled as a running server has them: a few rounds over the small sessions first.
  for (let r = 0; r < 10; r++) {
    for (const trace of traces.slice(0, 2)) {
      analyzeTrack(trace, definition);
      analyzeGps(trace);
    }
  }
  const perSample: number[] = [];
  const ratios: number[] = [];
  for (const trace of traces) {
    const runs = trace.count >= 500_000 ? (QUICK ? 2 : 3) : QUICK ? 3 : 7;
    const trackMs = timeMedian(() => analyzeTrack(trace, definition), runs);
    const basicMs = timeMedian(() => analyzeGps(trace), runs);
    perSample.push((trackMs * 1e6) / trace.count);
    ratios.push(trackMs / basicMs);
    rows.push([
      `track analysis ${trace.count} samples`,
      `${fmt(trackMs)} ms (${fmt((trackMs * 1e6) / trace.count, 0)} ns/sample)`,
      `analyzeGps ${fmt(basicMs)} ms`,
      `${fmt(trackMs / basicMs, 2)}×`,
      '≤ 4×, ns/sample within 1.5× 10k → 1M',
    ]);
  }
  result.track_analysis_vs_basic = Number(fmt(Math.max(...ratios), 2));
  result.track_analysis_ns_per_sample = Number(fmt(perSample[1]!, 0));
  rows.push([
    'track analysis growth',
    `${perSample.map((n) => fmt(n, 0)).join(' → ')} ns/sample`,
    '',
    `${fmt(perSample[2]! / perSample[0]!, 2)}× (1M / 10k)`,
    '≤ 1.5×',
  ]);
}

/**
 * The corner study of a 30-minute session at 25 Hz (`studySession`, run once per session by the
 * analysis job) against that session's track analysis: what the job adds to each arrival.
 */
function benchCornerStudy({ quick: QUICK, interlagos }: ParseData) {
  const session = generateSession(interlagos, { seed: 6, hz: 25, heats: 1, lapsPerHeat: [14, 14] });
  const trace = parseGpsSix(session.gpsSix).value;
  const found = trackCatalogue().find(trace)!;
  const definition = definitionFromCatalogue(found.track.outline, found.track.startFinish, found.forward);
  const analysis = analyzeTrack(trace, definition);
  for (let r = 0; r < 3; r++) studySession(trace, definition, analysis);
  const runs = QUICK ? 3 : 7;
  const studyMs = timeMedian(() => studySession(trace, definition, analysis), runs);
  const analysisMs = timeMedian(() => analyzeTrack(trace, definition), runs);
  result.corner_study_vs_analysis = Number(fmt(studyMs / analysisMs, 2));
  rows.push([
    `corner study, 30 min at 25 Hz (${trace.count} samples, ${analysis.laps.filter((l) => l.complete).length} laps)`,
    `${fmt(studyMs)} ms`,
    `its track analysis ${fmt(analysisMs)} ms`,
    `${fmt(studyMs / analysisMs, 2)}×`,
    '(reported: once per session, in the job)',
  ]);
}
