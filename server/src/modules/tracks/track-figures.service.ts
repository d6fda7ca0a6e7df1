// A session's kept lap figures settled by the current rule as it arrives (and, after an upgrade,
// for every stored session), and the personal best it may have beaten.
import type { Kysely } from 'kysely';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { AppError } from '#core/errors.ts';
import { FIGURES_VERSION, type LapFigures } from '#core/laps/lap-math.ts';
import type { DB } from '#server/db/schema.ts';
import type { SessionReader } from '../sessions/session-reader.service';
import { ownSessionFigures, SYSTEM_VIEWER, unsettledFigures } from '../sessions/sessions.repository';
import type { TrackAnalyses } from './track-analysis.service';

/**
 * Sessions analysed in the background as they arrive, up to this size (8 h at 10 Hz): a larger one
 * (a 100 MB day) would hold its whole trace in memory for it; its ideal lap comes with its first read.
 */
const BACKGROUND_MAX_SAMPLES = 300_000;
/** Sessions whose kept figures follow an older rule, settled at a time by the start-up sweep. */
const SETTLE_BATCH = 4;

/** A session settled as it arrived: whose it is, and the record it beat (announced live to its rider). */
export interface Arrived {
  owner: string;
  personalBest: { lapTimeMs: number; previousMs: number } | undefined;
}

export function createTrackFigures(deps: { db: Kysely<DB>; reader: SessionReader; analyses: TrackAnalyses }) {
  const { db, reader } = deps;
  const { analyzed, keepListFigures } = deps.analyses;

  /**
   * Keeps a session's figures by the current rule: by its one lap list where it has a trace timed at
   * a track Voltas knows or a real circuit, by the lap.six's rules where it has no trace or no such
   * track (then it is settled, and not searched for again). A trace over BACKGROUND_MAX_SAMPLES is
   * left as it is: its first analysis (a read) settles it; one already settled, too.
   */
  async function settleFigures(s: SessionAddress): Promise<void> {
    const { id, samples, settled } = await reader.sessionOf(SYSTEM_VIEWER, s);
    // Settled since it was asked for (by a read, or by its import as it built the session).
    if (settled || samples > BACKGROUND_MAX_SAMPLES) return;
    if (samples > 0) {
      try {
        // A known track or a real circuit (the catalogue searched); a derived track only comes with a read.
        const at = await analyzed(SYSTEM_VIEWER, s, false);
        if (!at.fresh) await keepListFigures(at.inputs, at.list, at.deviceLaps);
        return;
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
      }
    }
    // No trace, or none timed at a known track: the lap.six's rules.
    await reader.keepLapSixFigures(id, await reader.sessionFiles(SYSTEM_VIEWER, s));
  }

  // One settling per session at a time: a list read by two riders at once analyses it once.
  const settling = new Map<string, Promise<void>>();
  function settleOnce(s: SessionAddress): Promise<void> {
    const key = `${s.device}/${s.track}/${s.date}`;
    let running = settling.get(key);
    if (!running) {
      running = settleFigures(s).finally(() => settling.delete(key));
      settling.set(key, running);
    }
    return running;
  }
  // The reader settles figures kept by an older rule on their next read, through this service.
  reader.settleFiguresWith(settleOnce);

  /** A settled session's owner, and its personal best if its best lap beats the rider's other sessions at that circuit. */
  async function arrived(s: SessionAddress): Promise<Arrived> {
    const { id, owner } = await reader.sessionOf(SYSTEM_VIEWER, s);
    let best: number | null = null;
    let before: number | null = null;
    for (const row of await ownSessionFigures(db, owner, s.track)) {
      const ms = row.lap_figures ? (JSON.parse(row.lap_figures) as LapFigures).bestLapMs : null;
      if (ms === null) continue;
      if (row.id === id) best = ms;
      else if (before === null || ms < before) before = ms;
    }
    return {
      owner,
      personalBest:
        best !== null && before !== null && best < before ? { lapTimeMs: best, previousMs: before } : undefined,
    };
  }

  /**
   * Analyses a session that just arrived, so that its ideal lap is there for the lists, and keeps
   * its figures by its one lap list (a session without a GPS trace, or none to time, keeps the
   * lap.six's). Callable from any scheduler.
   */
  async function analyzeArrived(s: SessionAddress): Promise<Arrived | undefined> {
    try {
      await settleOnce(s);
      return await arrived(s);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return undefined;
    }
  }

  return {
    analyzeArrived,

    /**
     * Settles the figures of every stored session kept by an older rule, SETTLE_BATCH at a time
     * (each may analyse its trace), in the background after start-up; `stopped` ends it between
     * two batches. Returns how many were looked at.
     */
    async settleStoredFigures(stopped: () => boolean = () => false): Promise<number> {
      let after = '';
      let seen = 0;
      while (!stopped()) {
        const rows = await unsettledFigures(db, FIGURES_VERSION, SETTLE_BATCH, after);
        if (rows.length === 0) break;
        for (const row of rows) {
          await analyzeArrived({ device: row.device_id, track: row.track, date: row.date });
          seen++;
        }
        after = rows[rows.length - 1]!.id;
      }
      return seen;
    },
  };
}
