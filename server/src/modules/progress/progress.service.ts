// A rider's history over their own sessions: the record at each circuit, a track's days one by one, the
// corners that improved between two days, and a lap against another day's, their record or a shared lap.
import type { z } from 'zod';
import type {
  compareQuerySchema,
  CornerProgress,
  PersonalBest,
  ProgressResponse,
} from '#core/contracts/progress.contract.ts';
import { AppError } from '#core/errors.ts';
import type { LapFigures } from '#core/laps/lap-math.ts';
import { circuitKey } from '../sessions/circuits';
import type { SessionReader } from '../sessions/session-reader.service';
import { SYSTEM_VIEWER, type Viewer } from '../sessions/sessions.repository';
import type { SharesService } from '../shares/shares.service';
import type { LapAt } from '../tracks/track-analysis.service';
import type { TracksService } from '../tracks/tracks.service';

type OwnSession = Awaited<ReturnType<SessionReader['ownFigures']>>[number];

/** The faster of two sessions' best laps (the earlier day on a tie: a record is whoever rode it first). */
const faster = (a: OwnSession | undefined, b: OwnSession) =>
  b.figures.bestLapMs !== null && (!a || a.figures.bestLapMs === null || b.figures.bestLapMs < a.figures.bestLapMs)
    ? b
    : a;

/** The names the sessions carry, once each, in order. */
const namesOf = (sessions: readonly OwnSession[]) => [...new Set(sessions.map((s) => s.track))].sort();

function recordOf(s: OwnSession, tracks: string[]): PersonalBest {
  const f = s.figures as LapFigures & { bestLapMs: number; bestLap: NonNullable<LapFigures['bestLap']> };
  return {
    track: s.track,
    circuit: s.circuit,
    tracks,
    lapTimeMs: f.bestLapMs,
    device: s.device,
    date: s.date,
    heat: f.bestLap.heat,
    lapCount: f.bestLap.lapCount,
  };
}

/**
 * A rider's history: the personal best per track (their own sessions, devices and imports), the
 * progress of a track day by day, the corners that improved between two days, and any lap
 * against another (another day's, their record, or a friend's shared lap).
 */
export function createProgressService(deps: { reader: SessionReader; tracks: TracksService; shares: SharesService }) {
  const { reader } = deps;

  /** The record at each circuit (one circuit is one track, whatever each session calls it). */
  async function personalBests(email: string, track?: string): Promise<PersonalBest[]> {
    const best = new Map<string, OwnSession>();
    const all = new Map<string, OwnSession[]>();
    for (const s of await reader.ownFigures(email, track)) {
      const key = circuitKey(s.circuit);
      all.set(key, [...(all.get(key) ?? []), s]);
      const pick = faster(best.get(key), s);
      if (pick) best.set(key, pick);
    }
    return [...best.entries()]
      .map(([key, s]) => recordOf(s, namesOf(all.get(key)!)))
      .sort((a, b) => a.circuit.name.localeCompare(b.circuit.name));
  }

  /** One session per day at the circuit a track name stands for: the one with the day's best lap; and every name there. */
  async function days(email: string, track: string): Promise<{ list: OwnSession[]; tracks: string[] }> {
    const byDay = new Map<string, OwnSession>();
    const sessions = await reader.ownFigures(email, track);
    for (const s of sessions) {
      const current = byDay.get(s.date);
      byDay.set(s.date, faster(current, s) ?? current ?? s);
    }
    return { list: [...byDay.values()].sort((a, b) => a.dateIso.localeCompare(b.dateIso)), tracks: namesOf(sessions) };
  }

  return {
    async records(viewer: Viewer) {
      return { records: await personalBests(viewer.email) };
    },

    async progress(viewer: Viewer, track: string): Promise<ProgressResponse> {
      const { list, tracks } = await days(viewer.email, track);
      const record = list.reduce<OwnSession | undefined>(faster, undefined);
      return {
        track,
        circuit: list.at(-1)?.circuit ?? null,
        tracks,
        days: list.map((s) => ({
          date: s.date,
          device: s.device,
          track: s.track,
          bestLapMs: s.figures.bestLapMs,
          idealLapMs: s.idealLapMs,
          theoreticalBestMs: s.figures.theoreticalBestMs,
          consistencyMs: s.figures.consistencyMs,
          meanLapMs: s.figures.meanLapMs,
          flyingLaps: s.figures.flyingLaps,
          personalBest: s === record,
        })),
        personalBest: record ? recordOf(record, tracks) : null,
      };
    },

    /** Each corner's best time on two days at a track, and which improved most and least. */
    async corners(viewer: Viewer, track: string, from: string, to: string): Promise<CornerProgress> {
      const { list } = await days(viewer.email, track);
      const dayOf = (date: string) => {
        const s = list.find((d) => d.date === date);
        if (!s) throw new AppError('storage/object-not-found', `No session of yours at ${track} on ${date}.`);
        return deps.tracks.cornerBests(viewer, { device: s.device, track: s.track, date: s.date });
      };
      const [a, b] = await Promise.all([dayOf(from), dayOf(to)]);
      if (a.trackId !== b.trackId) throw new AppError('track/different-tracks');
      const corners = a.corners.map((c, k) => {
        const later = b.corners[k]?.seconds ?? null;
        return {
          corner: c.corner,
          fromSeconds: c.seconds,
          toSeconds: later,
          gainSeconds: c.seconds !== null && later !== null ? Math.round((c.seconds - later) * 1000) / 1000 : null,
        };
      });
      const ranked = corners.filter((c) => c.gainSeconds !== null).sort((x, y) => y.gainSeconds! - x.gainSeconds!);
      return {
        track,
        from,
        to,
        corners,
        mostImproved: ranked[0]?.corner ?? null,
        leastImproved: ranked.length > 1 ? ranked[ranked.length - 1]!.corner : null,
      };
    },

    async compare(viewer: Viewer, q: z.infer<typeof compareQuerySchema>) {
      const lap: LapAt = {
        viewer,
        address: { device: q.device, track: q.track, date: q.date },
        lap: q.lap,
        shared: false,
      };
      let reference: LapAt;
      if (q.reference === 'record') {
        const [record] = await personalBests(viewer.email, q.track);
        if (!record) throw new AppError('storage/object-not-found', `No lap of yours at ${q.track} yet.`);
        reference = {
          viewer,
          address: { device: record.device, track: record.track, date: record.date },
          lap: `${record.heat}${record.lapCount}`,
          shared: false,
        };
      } else if (q.reference === 'share') {
        const share = await deps.shares.open(q.share!);
        if (share.lap && q.refLap && q.refLap !== share.lap)
          throw new AppError('storage/object-not-found', 'No such complete lap in this session.');
        let key = share.lap ?? q.refLap;
        if (key === undefined) {
          const best = await deps.tracks.sharedLap(share.address, undefined);
          key = `${best.heat}${best.number}`;
        }
        reference = { viewer: SYSTEM_VIEWER, address: share.address, lap: key, shared: true };
      } else {
        reference = {
          viewer,
          address: { device: q.refDevice!, track: q.refTrack!, date: q.refDate! },
          lap: q.refLap!,
          shared: false,
        };
      }
      return deps.tracks.compare(lap, reference);
    },
  };
}

export type ProgressService = ReturnType<typeof createProgressService>;
