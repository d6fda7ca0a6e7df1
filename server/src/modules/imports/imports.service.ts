import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { Kysely } from 'kysely';
import type { ImportAnswer } from '#core/contracts/imports.contract.ts';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { AppError } from '#core/errors.ts';
import { dateToDdmmyyyy, isValidTrackName } from '#core/formats/dates.ts';
import { parseLapSix } from '#core/formats/lap-six.ts';
import { HEATS } from '#core/formats/six-lines.ts';
import { importWarningText } from '#core/i18n/import-warnings.ts';
import { translate } from '#server/lib/i18n.ts';
import { detectFormat, isGzip, SNIFF_BYTES } from '#core/imports/detect.ts';
import { ImportReader, unsupported } from '#core/imports/importer.ts';
import { localDay } from '#core/imports/local-time.ts';
import {
  lapNumbering,
  lapSixText,
  loggerTwin,
  mergeTraces,
  sessionColumns,
  sessionFiles,
  sessionTrace,
  type SessionTrace,
} from '#core/imports/to-session.ts';
import type { ImportedFile, ImportWarning, LoggerLap } from '#core/imports/trace.ts';
import { timeLaps } from '#core/tracks/lap-timing.ts';
import { liesAcross } from '#core/tracks/track-line.ts';
import type { BlobStore } from '#server/blobs/blob-store.ts';
import type { Coordination } from '#server/db/coordination.ts';
import type { DB } from '#server/db/schema.ts';
import { bodyToFile } from '#server/lib/body-to-file.ts';
import { nowIso } from '#server/lib/tokens.ts';
import type { SessionReceiver } from '../sessions/session-receiver.service';
import { gpsColumnsKey, sessionKey } from '../sessions/session-files';
import { findSession, type Viewer } from '../sessions/sessions.repository';
import type { TracksService } from '../tracks/tracks.service';
import {
  deleteImportedSession,
  ensureCollection,
  recentSessionsOf,
  findCollection,
  findImportFile,
  listImportFiles,
  recordImportFile,
  type ImportFileRow,
} from './imports.repository';
import { createImportWorkers, DEFAULT_IMPORT_LIMITS, type ImportLimits } from './import-worker';

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

/**
 * The first bytes of a body as they arrive, read as the worker will read them: an unknown format,
 * a DTD, a gps.six with no day in its name is refused at once, the rest never received. A .gz is
 * left to the worker (its first bytes tell nothing). `end` checks a body shorter than the sniff.
 */
function firstBytesCheck(filename: string) {
  let head = Buffer.alloc(0);
  let done = false;
  return {
    push(chunk: Uint8Array): void {
      if (done) return;
      head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES + 2 - head.length)]);
      if (head.length < 2) return;
      if (isGzip(head)) return void (done = true);
      if (head.length < SNIFF_BYTES) return;
      done = true;
      new ImportReader(filename).push(head.subarray(0, SNIFF_BYTES)); // throws the refusal, if any
    },
    /** A short body of no known format is refused here, without a worker. */
    end(): void {
      if (!done && head.length && !isGzip(head) && !detectFormat(head.toString('latin1'))) throw unsupported();
    },
  };
}

/** An import's answer as kept: one kept before laps carried their GPS time beside the shown one gets it (the same then). */
function storedAnswer(json: string): ImportAnswer {
  const answer = JSON.parse(json) as ImportAnswer;
  return { ...answer, laps: answer.laps.map((l) => ({ ...l, gpsSeconds: l.gpsSeconds ?? l.seconds })) };
}

/** The import's warnings, each with its text (pt-BR: the web words them again in the page's language). */
function present(warnings: ImportWarning[]) {
  const t = translate('pt-BR');
  return warnings.map((w) => ({ ...w, message: importWarningText(t, w) }));
}

/**
 * Sessions riders import from other loggers. A file is kept byte for byte in the blob store; its
 * fixes become the session's gps.six and its laps, timed by Voltas at the track the trace ran on,
 * its lap.six, received through the same receiver as a device's files (validation, index,
 * recovery). Two files of one rider at one track on one day make one session (their traces
 * merged), as one day with a device does.
 */
export function createImportsService(deps: {
  db: Kysely<DB>;
  blobs: BlobStore;
  receiver: SessionReceiver;
  tracks: TracksService;
  coordination: Coordination;
  /** Size, inflation, memory and time limits (tests make them small). */
  limits?: Partial<ImportLimits>;
}) {
  const { db, blobs, receiver, tracks, coordination } = deps;
  const limits: ImportLimits = { ...DEFAULT_IMPORT_LIMITS, ...deps.limits };
  const workers = createImportWorkers(limits);
  const tooLarge = () =>
    new AppError(
      'import/too-large',
      `Imports are limited to ${limits.maxBytes} bytes; nothing was stored.`,
      undefined,
      { id: 'imports.refused.tooLarge', values: { mb: Math.round(limits.maxBytes / 1024 / 1024) } },
    );

  async function collectionOf(owner: string): Promise<string> {
    return (
      (await findCollection(db, owner)) ?? ensureCollection(db, owner, `imp${randomBytes(6).toString('hex')}`, nowIso())
    );
  }

  /** Receives the body into a temp file: size limit, MD5 and `onChunk` on the way. */
  async function receiveBody(
    body: AsyncIterable<Uint8Array>,
    onChunk: (chunk: Uint8Array) => void,
  ): Promise<{ file: string; md5: string; size: number }> {
    const file = await blobs.tempPath();
    const hash = createHash('md5');
    let size = 0;
    try {
      await bodyToFile(body, file, (chunk) => {
        size += chunk.length;
        if (size > limits.maxBytes) throw tooLarge();
        hash.update(chunk);
        onChunk(chunk);
      });
    } catch (err) {
      await fs.rm(file, { force: true });
      throw err;
    }
    if (size === 0) {
      await fs.rm(file, { force: true });
      throw new AppError('import/no-fix', 'The file is empty; nothing was stored.', undefined, {
        id: 'imports.refused.empty',
      });
    }
    return { file, md5: hash.digest('hex'), size };
  }

  /** Builds (again) the session from all its imported files, and answers for the newest. */
  async function buildSession(
    address: { collection: string; owner: string; track: string; date: string },
    trackId: string,
    definition: Awaited<ReturnType<TracksService['identify']>>['definition'],
    /** In the order they were imported, the newest last. */
    files: { file: ImportedFile; name: string }[],
    /** The newest file's trace, made the session's to find its track: the session's whole when it is alone. */
    newest: SessionTrace,
  ) {
    // The same ride imported twice (exported again, or from another app) is built once: from the
    // file with the logger's own laps, else the richer one (sessionFiles says why); the other
    // adds only fixes outside that one's time, and neither its laps nor its warnings again.
    const { order, repeats } = sessionFiles(files.map((f) => f.file));
    const used = files.filter((_, k) => repeats[k] === undefined);
    const source = files.length === 1 ? newest : sessionTrace(mergeTraces(order.map((k) => files[k]!.file.trace)));
    // Analysed in a worker (the best part of a second on a million fixes); its arrays come back as `trace`.
    const { analysis, trace } = await workers.analyze(source, definition);
    const warnings: ImportWarning[] = used.flatMap((f) => f.file.warnings);
    const last = files.length - 1;
    const twin = repeats[last] ?? repeats.findIndex((j) => j === last);
    if (twin >= 0) warnings.unshift({ code: 'sameRecording', file: files[twin]!.name });
    // The logger's own laps: its file's, or timed at the file's own line where that really crosses the trace.
    let logger: LoggerLap[] = used.flatMap((f) => f.file.loggerLaps);
    for (const { file } of used) {
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
      receiver.receive({ ...at, kind: 'gps', columns: sessionColumns(trace, analysis.laps, lapNumbers) }),
      lap.laps.length ? receiver.receive({ ...at, kind: 'lap', body: Buffer.from(lap.text) }) : undefined,
    ]);
    await tracks.remember(sessionKey(address.collection, address.track, address.date), trackId); // once the session's row exists
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
    const flying = laps.filter((l) => l.kind === 'flying');
    return {
      laps,
      bestLapSeconds: flying.length ? Math.min(...flying.map((l) => l.seconds)) : null,
      loggerLaps: logger.map((l) => Number(l.seconds.toFixed(3))),
      samples: trace.count,
      warnings: present(warnings),
    };
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

  return {
    /**
     * Imports one file for `owner`. 201 with what was found, or 200 with the same answer when
     * these bytes were imported before. Refusals (415, 413, 422) store nothing.
     */
    async importFile(
      owner: string,
      filename: string,
      body: AsyncIterable<Uint8Array>,
      /** `expectedBytes`: the body's declared length, when known (over the limit: refused before any byte is read). */
      options: { trackName?: string; expectedBytes?: number } = {},
    ): Promise<{ created: boolean; answer: ImportAnswer }> {
      // A body declared larger than the limit is refused before any of it is read.
      if (options.expectedBytes !== undefined && options.expectedBytes > limits.maxBytes) throw tooLarge();
      const check = firstBytesCheck(filename);
      const received = await receiveBody(body, check.push);
      let kept = false;
      try {
        const before = await findImportFile(db, owner, received.md5);
        if (before && (await findSession(db, before.session_id)))
          return { created: false, answer: storedAnswer(before.answer) };
        check.end();
        const collection = await collectionOf(owner);
        const read = await workers.read(received.file, filename);
        if (read.kind === 'lap.six') {
          // The device's own laps for a gps.six already imported: kept as that session's lap.six.
          const { row, answer } = await attachLapSix(collection, read.text);
          await receiver.receive({
            deviceId: collection,
            owner,
            track: row.track,
            date: row.date,
            kind: 'lap',
            body: await fs.readFile(received.file),
          });
          const full: ImportAnswer = { ...answer, format: 'lap.six', replacedLaps: true };
          await recordRaw(owner, received, row.id, await putRaw(received, row.id), filename, 'lap.six', full);
          kept = true;
          return { created: true, answer: full };
        }
        const file = read.file;
        const day = localDay(file.trace);
        const trace = sessionTrace(file.trace); // done in the worker already: here only its session view (again changes nothing)
        const track = await tracks.identify(trace, owner);
        const date = dateToDdmmyyyy(new Date(Date.UTC(day.y, day.m - 1, day.d)));
        const trackName = trackSegment(options.trackName ?? track.name);
        const id = sessionKey(collection, trackName, date);
        return await coordination.withKeyLock(`import:${id}`, async () => {
          // The other files of that day at that track: read again from their raw bytes.
          const others: { file: ImportedFile; name: string }[] = [];
          for (const f of await listImportFiles(db, id)) {
            if (f.format === 'lap.six') continue;
            const src = await blobs.getStream(f.blob_key);
            if (!src) continue;
            const tmp = await blobs.tempPath();
            await fs.writeFile(tmp, src.body as AsyncIterable<Uint8Array>);
            try {
              const again = await workers.read(tmp, f.filename);
              if (again.kind === 'trace') others.push({ file: again.file, name: f.filename });
            } finally {
              await fs.rm(tmp, { force: true });
            }
          }
          // The raw file goes to the blob store while the session is built: its write and sync overlap that work.
          const rawStored = putRaw(received, id);
          rawStored.catch(() => undefined); // awaited below
          let built: Awaited<ReturnType<typeof buildSession>>;
          try {
            built = await buildSession(
              { collection, owner, track: trackName, date },
              track.id,
              track.definition,
              [...others, { file, name: filename }],
              trace,
            );
          } catch (err) {
            await rawStored.then((key) => blobs.delete(key)).catch(() => undefined);
            throw err;
          }
          const answer: ImportAnswer = {
            session: { device: collection, track: trackName, date },
            format: file.format,
            track: { id: track.id, name: track.name, source: track.source },
            files: others.length + 1,
            ...built,
          };
          await recordRaw(owner, received, id, await rawStored, filename, file.format, answer);
          kept = true;
          return { created: true, answer };
        });
      } finally {
        if (!kept) await fs.rm(received.file, { force: true });
      }
    },

    /** The limits this service was made with (the route's body limit is its `maxBytes`). */
    limits,

    /** Stops the import workers still reading (the server is closing). */
    close: () => workers.close(),

    /** Deletes an imported session: only its importer, and only an imported one. */
    async deleteSession(viewer: Viewer, s: SessionAddress, canSee: boolean): Promise<void> {
      const collection = await findCollection(db, viewer.email);
      if (!collection || s.device !== collection) {
        if (canSee) throw new AppError('import/not-imported');
        throw new AppError('storage/object-not-found');
      }
      const id = sessionKey(s.device, s.track, s.date);
      await coordination.withKeyLock(`import:${id}`, async () => {
        const row = await findSession(db, id);
        if (!row || row.owner_email !== viewer.email) throw new AppError('storage/object-not-found');
        const files = await listImportFiles(db, id);
        await deleteImportedSession(db, id);
        const keys = [`${id}/gps.six`, `${id}/lap.six`, ...files.map((f) => f.blob_key)];
        if (row.gps_md5) keys.push(gpsColumnsKey(id, row.gps_md5));
        for (const key of keys) await blobs.delete(key).catch(() => undefined);
      });
    },
  };

  /** The raw file, byte for byte, into the blob store; its key. */
  async function putRaw(received: { file: string; md5: string }, sessionId: string): Promise<string> {
    const key = `${sessionId}/.imports/${received.md5}`;
    await blobs.putFile(key, received.file, 'application/octet-stream', {
      md5: Buffer.from(received.md5, 'hex').toString('base64'),
    });
    return key;
  }

  /** The import's row: what a second import of the same bytes answers. */
  async function recordRaw(
    owner: string,
    received: { md5: string; size: number },
    sessionId: string,
    key: string,
    filename: string,
    format: string,
    answer: ImportAnswer,
  ) {
    const row: ImportFileRow = {
      owner_email: owner,
      md5: received.md5,
      session_id: sessionId,
      filename: filename.slice(0, 255),
      format,
      size: received.size,
      blob_key: key,
      answer: JSON.stringify(answer),
      created_at: nowIso(),
    };
    await recordImportFile(db, row);
  }
}
export type ImportsService = ReturnType<typeof createImportsService>;
