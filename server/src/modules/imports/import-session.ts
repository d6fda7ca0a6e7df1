// Building a session from imported files: their traces merged, timed at the track they ran on,
// written as the session's gps.six and lap.six through the session receiver; and a lap.six
// matched to the gps.six it belongs to.
import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import { AppError } from '#core/errors.ts';
import { isValidTrackName } from '#core/formats/dates.ts';
import { parseLapSix } from '#core/formats/lap-six.ts';
import { HEATS } from '#core/formats/six-lines.ts';
import { importWarningText } from '#core/i18n/import-warnings.ts';
import { translate } from '#server/lib/i18n.ts';
import {
  lapNumbering,
  lapSixText,
  sessionColumns,
  sessionLapColumns,
  type SessionTrace,
} from '#core/imports/to-session.ts';
import { loggerTwin, ownLine } from '#core/imports/logger-line.ts';
import type { ImportedFile, ImportWarning, LoggerLap } from '#core/imports/trace.ts';
import { timeLaps, type TimedLap } from '#core/tracks/lap-timing.ts';
import type { TrackAnalysis } from '#core/tracks/track-analysis.ts';
import { liesAcross } from '#core/tracks/track-line.ts';
import type { DB } from '#server/db/schema.ts';
import type { SessionReceiver } from '../sessions/session-receiver.service';
import { sessionKey } from '../sessions/session-files';
import type { TracksService } from '../tracks/tracks.service';
import { storedAnswer } from './import-body';
import type { ImportWorkers } from './import-worker';
import { listImportFiles, recentSessionsOf } from './imports.repository';
import { tooManyFixes } from './session-merge';

/** A track's name as a session path segment: the characters a track name may hold, at most 64. */
export function trackSegment(name: string): string {
  const cleaned = name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} _.-]+/gu, ' ')
    .replace(/\.{2,}/g, '.')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 64)
    .trim();
  return isValidTrackName(cleaned) ? cleaned : 'Pista';
}

/** A lap as lap timing gives it, without what the track analysis adds. */
const timedLap = ({ number, run, kind, start, end, seconds, complete }: TimedLap): TimedLap => ({
  number,
  run,
  kind,
  start,
  end,
  seconds,
  complete,
});

/** The import's warnings, each with its text (pt-BR: the web words them again in the page's language). */
function present(warnings: ImportWarning[]) {
  const t = translate('pt-BR');
  return warnings.map((w) => ({ ...w, message: importWarningText(t, w) }));
}

export function createSessionBuilder(deps: {
  db: Kysely<DB>;
  receiver: SessionReceiver;
  tracks: TracksService;
  workers: ImportWorkers;
}) {
  const { db, receiver, tracks, workers } = deps;

  /**
   * Keeps the session's figures and ideal lap as its first read would keep them, from the analysis
   * its reads make: of the trace with the heats just numbered, which cut its runs where they change
   * (a merged day's files, a fifth run in heat D), so not always the analysis that numbered them.
   * Where the numbered heats time the same laps, the rest of the analysis follows from those laps
   * and the trace alone: it is that analysis. Else it is made again, in a worker (neither that read
   * nor the arrival's job analyses the trace), the trace's arrays moved there (unusable after).
   */
  async function keepAsRead(
    address: { collection: string; track: string; date: string },
    definition: Awaited<ReturnType<TracksService['identify']>>['definition'],
    trace: SessionTrace,
    numbered: TrackAnalysis,
    laps: ReturnType<typeof sessionLapColumns>,
  ) {
    const asRead = { ...trace, heat: laps.heat };
    const analysis = isDeepStrictEqual(timeLaps(asRead, definition.gate), numbered.laps.map(timedLap))
      ? numbered
      : (await workers.analyze(asRead, definition)).analysis;
    await tracks.keepImported({ device: address.collection, track: address.track, date: address.date }, analysis, laps);
  }

  /**
   * Builds (again) the session from all its imported files, and answers for the newest. The
   * earlier files are read again and merged in a worker (session-merge.ts): the event loop holds
   * only the merged trace.
   */
  async function buildSession(
    address: { collection: string; owner: string; track: string; date: string },
    trackId: string,
    trackDefinition: Awaited<ReturnType<TracksService['identify']>>['definition'],
    /** The session's earlier files, their raw bytes at `file`, in the order they were imported. */
    earlier: { file: string; name: string }[],
    /** The newest file, and its trace as the session's (found its track); their arrays move to a worker: unusable after. */
    newest: { file: ImportedFile; name: string; trace: SessionTrace },
    /** The most fixes the session's files may hold together. */
    maxFixes: number,
  ) {
    // The same ride imported twice (exported again, or from another app) is built once: from the
    // file with the logger's own laps, else the richer one (sessionFiles says why); the other
    // adds only fixes outside that one's time, and neither its laps nor its warnings again.
    // Merged and analysed in a worker (the best part of a second on a million fixes); its arrays come back as `trace`.
    const merged = earlier.length
      ? await workers.merge(earlier, { file: newest.file, name: newest.name }, trackDefinition, maxFixes)
      : await alone(newest, trackDefinition, maxFixes);
    const { files, repeats } = merged;
    let { analysis, trace, six } = merged;
    const used = files.filter((_, k) => repeats[k] === undefined);
    // The logger's own line, where its file names it by the track (TrackAddict's End Point, a
    // SpeedAngle plan's): the session is timed there, so the laps listed are the logger's (issue 59);
    // analysed again at that line, in a worker (only such a file pays for it).
    const own = used.find((f) => (f.filePoint || f.fileGate) && f.loggerLaps.length);
    const ownGate =
      own && ownLine({ gate: own.fileGate, point: own.filePoint }, trackDefinition.line, trace, own.loggerLaps);
    const definition = ownGate ? await tracks.definitionAt(trackId, ownGate) : trackDefinition;
    if (ownGate) ({ analysis, trace, six } = await workers.analyze(trace, definition, true));
    // Each said once: two files of one logger say the same of each (RaceChrono's lean, calculated).
    const warnings: ImportWarning[] = used
      .flatMap((f) => f.warnings)
      .filter((w, k, all) => all.findIndex((o) => isDeepStrictEqual(o, w)) === k);
    const last = files.length - 1;
    const twin = repeats[last] ?? repeats.findIndex((j) => j === last);
    if (twin >= 0) warnings.unshift({ code: 'sameRecording', file: files[twin]!.name });
    // The logger's own laps: its file's, or timed at the file's own line where that really crosses the trace.
    let logger: LoggerLap[] = used.flatMap((f) => f.loggerLaps);
    for (const file of used) {
      if (!file.fileGate || file.loggerLaps.length) continue;
      const g = file.fileGate;
      const ways = liesAcross(definition.line, g)
        ? [g, { a: g.b, b: g.a }].map((gate) => timeLaps(trace, gate).filter((l) => l.complete))
        : [[], []];
      const best = ways[0]!.length >= ways[1]!.length ? ways[0]! : ways[1]!;
      if (best.length)
        logger = logger.concat(
          best.map((l) => ({ seconds: Number(l.seconds.toFixed(3)), endMs: trace.timeMs[0]! + l.end.ms })),
        );
      else warnings.push({ code: 'fileLineUnused' });
    }
    const lapNumbers = lapNumbering(analysis.laps);
    const lap = lapSixText(analysis.laps, lapNumbers, trace.timeMs[0]!, logger, definition.line.length);
    const at = { deviceId: address.collection, owner: address.owner, track: address.track, date: address.date };
    // Received side by side, as a device may send them: each waits on its own disk writes.
    await Promise.all([
      // Its text's digest made in the worker; its columns here in batches, a turn between them (six-body.ts).
      receiver.receive({
        ...at,
        kind: 'gps',
        columns: sessionColumns(trace, analysis.laps, lapNumbers, 4096),
        ...(six ? { written: six } : {}),
      }),
      lap.laps.length ? receiver.receive({ ...at, kind: 'lap', body: Buffer.from(lap.text) }) : undefined,
    ]);
    await tracks.remember(sessionKey(address.collection, address.track, address.date), trackId, ownGate ?? null); // once the session's row exists
    // The one lap list's rule: a lap's time is the logger's own where its file timed it, else the GPS's.
    const laps = analysis.laps
      .filter((l) => l.complete)
      .map((l) => {
        const n = lapNumbers.get(l.number)!;
        const mine = loggerTwin(l, trace.timeMs[0]!, logger);
        const gpsSeconds = Number(l.seconds.toFixed(3));
        return {
          heat: HEATS[n.heat]!,
          number: n.lapCount,
          seconds: mine ? mine.seconds : gpsSeconds,
          gpsSeconds,
          kind: l.kind,
          loggerSeconds: mine ? mine.seconds : null,
        };
      });
    // Where the logger and the GPS disagree on a lap (it ends where no GPS lap does, or holds a stop), said so.
    const unmatched = logger.filter((lap) => !laps.some((l) => l.loggerSeconds === lap.seconds)).length;
    if (unmatched) warnings.push({ code: 'loggerLapsUnmatched', count: unmatched });
    const flying = laps.filter((l) => l.kind === 'flying');
    const samples = trace.count;
    // Last: the trace's arrays move to the worker.
    await keepAsRead(address, definition, trace, analysis, sessionLapColumns(trace, analysis.laps, lapNumbers));
    return {
      files: files.length,
      laps,
      bestLapSeconds: flying.length ? Math.min(...flying.map((l) => l.seconds)) : null,
      loggerLaps: logger.map((l) => Number(l.seconds.toFixed(3))),
      samples,
      warnings: present(warnings),
    };
  }

  /** A session of one file: its trace is the session's already. */
  async function alone(
    newest: { file: ImportedFile; name: string; trace: SessionTrace },
    definition: Awaited<ReturnType<TracksService['identify']>>['definition'],
    maxFixes: number,
  ) {
    const { trace: _, ...facts } = newest.file;
    if (newest.trace.count > maxFixes) throw tooManyFixes(maxFixes, newest.trace.count);
    const { analysis, trace, six } = await workers.analyze(newest.trace, definition, true);
    return { analysis, trace, six, files: [{ ...facts, name: newest.name }], repeats: [undefined] };
  }

  /** A lap.six: the laps of a gps.six imported before, matched by their times. */
  async function attachLapSix(collection: string, text: string) {
    const parsed = parseLapSix(text);
    const times = parsed.value.map((l) => l.lapSeconds);
    if (!times.length)
      throw new AppError('storage/invalid-format', 'No valid lap.six line; nothing was stored.', undefined, {
        id: 'imports.refused.noLapSixLine',
      });
    const candidates = await recentSessionsOf(db, collection, 50);
    for (const row of candidates) {
      const file = (await listImportFiles(db, row.id)).find((f) => f.format === 'gps.six');
      if (!file) continue;
      const answer = storedAnswer(file.answer);
      const gpsTimes = answer.laps.map((l) => l.seconds);
      const matched = times.filter((t) => gpsTimes.some((g) => Math.abs(g - t) <= 0.2)).length;
      if (matched >= Math.max(1, Math.ceil(times.length / 2))) return { row, answer };
    }
    throw new AppError('import/laps-without-trace');
  }

  return { buildSession, attachLapSix };
}
