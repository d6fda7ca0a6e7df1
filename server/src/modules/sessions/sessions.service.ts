import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { gpsResponseSchema, lapsResponseSchema, summaryResponseSchema, uploadResponseSchema } from '../../../../core/contracts/sessions.contract';
import { ddmmyyyyToIso, isDdmmyyyy, isValidTrackName } from '../../../../core/formats/dates';
import { decodeSixBody, HEATS, msToGpsTime, parseGpsSix, parseLapSix, type LineProblem } from '../../../../core/formats/six-format';
import { analyzeSession } from '../../../../core/laps/lap-math';
import { AppError } from '../../../../core/errors';
import type { BlobStore } from '../../blobs/blob-store';
import type { DB } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { nowIso } from '../../lib/tokens';
import {
  findSession, findVisibleSession, indexSessionFile, listLaps, listVisibleDates, listVisibleTracks, type SessionRow, type Viewer,
} from './sessions.repository';

export type SixKind = 'lap' | 'gps';
export const SIX_FILE: Record<SixKind, string> = { lap: 'lap.six', gps: 'gps.six' };
/** Upload limits: a lap.six is a few kB; a gps.six of 3 h at 25 Hz is about 20 MB. */
export const MAX_UPLOAD_BYTES: Record<SixKind, number> = { lap: 2 * 1024 * 1024, gps: 64 * 1024 * 1024 };

export function sessionKey(deviceId: string, track: string, date: string): string {
  return `${deviceId}/${track}/${date}`;
}

export interface SessionEvent {
  type: 'session-updated';
  deviceId: string;
  track: string;
  date: string;
  owner: string;
}

/** Validates what becomes part of a storage key: 400 with a clear reason. */
export function assertSessionAddress(track: string, date: string): void {
  if (!isValidTrackName(track)) throw new AppError('storage/invalid-argument', 'Invalid track name: 1-64 letters, digits, spaces, "-", "_" or "."; no "/", ".." or control characters.');
  if (!isDdmmyyyy(date)) throw new AppError('storage/invalid-argument', 'Invalid date: expected a real calendar date as ddmmyyyy.');
}

/** Serializes work per key within this process, so a blob and its index are replaced together. */
class KeyedMutex {
  private tails = new Map<string, Promise<unknown>>();
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(work, work);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await next;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

export function createSessionsService(deps: { db: Kysely<DB>; blobs: BlobStore; demoDeviceId: string }) {
  const { db, blobs } = deps;
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const mutex = new KeyedMutex();

  async function requireVisible(viewer: Viewer, deviceId: string, track: string, date: string): Promise<SessionRow> {
    const row = await findVisibleSession(db, viewer, sessionKey(deviceId, track, date));
    if (!row) throw new AppError('storage/object-not-found');
    return row;
  }

  return {
    events,

    /**
     * Device upload. Keeps the raw bytes exactly as sent, indexes every line that parses and
     * reports the others as warnings; refuses (422) a body that is not a six file at all.
     */
    async upload(input: { deviceId: string; owner: string; track: string; date: string; kind: SixKind; body: Buffer; contentMd5?: string | undefined }): Promise<z.infer<typeof uploadResponseSchema>> {
      assertSessionAddress(input.track, input.date);
      const md5 = createHash('md5').update(input.body).digest('base64');
      if (input.contentMd5 !== undefined && input.contentMd5.trim() !== md5) {
        throw new AppError('storage/invalid-checksum', 'Content-MD5 does not match the body.');
      }
      const decoded = decodeSixBody(input.body);
      if ('rejection' in decoded) {
        throw new AppError('storage/invalid-format', `Not a ${SIX_FILE[input.kind]} file (${decoded.rejection}); nothing was stored.`);
      }
      const parsed = input.kind === 'lap' ? parseLapSix(decoded.text) : parseGpsSix(decoded.text);
      const indexed = input.kind === 'lap' ? (parsed.value as ReturnType<typeof parseLapSix>['value']).length : (parsed.value as ReturnType<typeof parseGpsSix>['value']).count;
      if (indexed === 0) {
        throw new AppError('storage/invalid-format', `No valid ${SIX_FILE[input.kind]} line; nothing was stored.`, undefined);
      }
      const id = sessionKey(input.deviceId, input.track, input.date);
      const key = `${id}/${SIX_FILE[input.kind]}`;
      return mutex.run(key, async () => {
        const existing = await findSession(db, id);
        const existingMd5 = input.kind === 'lap' ? existing?.lap_md5 : existing?.gps_md5;
        const current = existingMd5 === md5 ? await blobs.head(key) : undefined;
        if (existing && current?.md5Hash === md5) {
          return { stored: false, unchanged: true, key, md5Hash: md5, lines: parsed.lines, indexed, warnings: parsed.problems };
        }
        await blobs.put(key, input.body, 'text/plain; charset=utf-8');
        const now = nowIso();
        await inTransaction(db, (trx) =>
          indexSessionFile(
            trx,
            { id, deviceId: input.deviceId, track: input.track, date: input.date, dateIso: ddmmyyyyToIso(input.date), owner: input.owner, now },
            input.kind,
            { md5, size: input.body.length, problems: parsed.problems },
            input.kind === 'lap' ? { laps: parsed.value as ReturnType<typeof parseLapSix>['value'] } : { sampleCount: indexed },
          ),
        );
        events.emit('session', { type: 'session-updated', deviceId: input.deviceId, track: input.track, date: input.date, owner: input.owner } satisfies SessionEvent);
        return { stored: true, unchanged: false, key, md5Hash: md5, lines: parsed.lines, indexed, warnings: parsed.problems };
      });
    },

    async tracks(viewer: Viewer, deviceId: string) {
      return { device: deviceId, demo: deviceId === deps.demoDeviceId, tracks: await listVisibleTracks(db, viewer, deviceId) };
    },

    async dates(viewer: Viewer, deviceId: string, track: string) {
      return { device: deviceId, track, dates: await listVisibleDates(db, viewer, deviceId, track) };
    },

    async laps(viewer: Viewer, deviceId: string, track: string, date: string): Promise<z.infer<typeof lapsResponseSchema>> {
      const row = await requireVisible(viewer, deviceId, track, date);
      const laps = await listLaps(db, row.id);
      const a = analyzeSession(laps);
      return {
        device: deviceId,
        track,
        date,
        demo: deviceId === deps.demoDeviceId,
        laps: laps.map((lap, i) => ({
          lapCount: lap.lapCount,
          heat: lap.heat,
          lapTime: lap.lapTime,
          lapTimeMs: lap.lapTimeMs,
          lapSeconds: lap.lapSeconds,
          sectors: lap.sectors,
          sprintCount: lap.sprintCount,
          distanceM: lap.distanceM,
          kind: a.laps[i]!.kind,
          gapMs: a.laps[i]!.gapMs,
          isBest: a.laps[i]!.isBest,
          bestSectors: a.laps[i]!.bestSectors,
        })),
        bestLapMs: a.bestLapMs,
        bestSectorsMs: a.bestSectorsMs,
        theoreticalBestMs: a.theoreticalBestMs,
        warnings: JSON.parse(row.lap_problems) as LineProblem[],
      };
    },

    async gps(viewer: Viewer, deviceId: string, track: string, date: string): Promise<z.infer<typeof gpsResponseSchema>> {
      const row = await requireVisible(viewer, deviceId, track, date);
      const body = row.gps_md5 ? await blobs.get(`${row.id}/gps.six`) : undefined;
      if (!body) throw new AppError('storage/object-not-found', 'This session has no GPS file.');
      const decoded = decodeSixBody(body);
      const c = parseGpsSix('text' in decoded ? decoded.text : '').value;
      return {
        device: deviceId,
        track,
        date,
        count: c.count,
        columns: {
          latitude: Array.from(c.lat),
          longitude: Array.from(c.lon),
          strSpeedGps: Array.from(c.speed),
          strSatGps: Array.from(c.satellites),
          timeGps: Array.from(c.timeMs, msToGpsTime),
          lapCount: Array.from(c.lapCount),
          bFirstLap: Array.from(c.firstLap),
          strBateria: Array.from(c.heat, (h) => HEATS[h]!),
          roll: Array.from(c.roll),
          leanFiltered: Array.from(c.leanFiltered),
          meterSum: Array.from(c.meterSum),
        },
        warnings: JSON.parse(row.gps_problems) as LineProblem[],
      };
    },

    async summary(viewer: Viewer, deviceId: string, track: string, date: string): Promise<z.infer<typeof summaryResponseSchema>> {
      const row = await requireVisible(viewer, deviceId, track, date);
      const a = analyzeSession(await listLaps(db, row.id));
      return {
        device: deviceId,
        track,
        date,
        demo: deviceId === deps.demoDeviceId,
        lapCount: Number(row.lap_count),
        sampleCount: Number(row.sample_count),
        bestLapMs: a.bestLapMs,
        theoreticalBestMs: a.theoreticalBestMs,
        heats: a.heats,
        files: { lap: row.lap_md5 !== '', gps: row.gps_md5 !== '' },
        warnings: { lap: JSON.parse(row.lap_problems) as LineProblem[], gps: JSON.parse(row.gps_problems) as LineProblem[] },
        updatedAt: row.updated_at,
      };
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
