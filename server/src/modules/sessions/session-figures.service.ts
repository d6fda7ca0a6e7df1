// A session's kept lap figures (best lap, theoretical best, consistency): read as kept, settled first
// when kept by an older rule, and kept by the lap.six's rules where there is no lap list.
import type { Kysely } from 'kysely';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { FIGURES_VERSION, lapFigures, type LapFigures } from '#core/laps/lap-math.ts';
import type { DB } from '#server/db/schema.ts';
import { findSession, listLaps, saveLapFigures, settleLapFigures } from './sessions.repository';

export function createSessionFigures(db: Kysely<DB>) {
  /** Settles a session's figures by the current rule (the tracks service's: its one lap list where it has one). */
  let settle: ((s: SessionAddress) => Promise<void>) | undefined;

  type FiguresRow = {
    id: string;
    device_id: string;
    track: string;
    date: string;
    lap_figures: string | null;
    figures_version: number | null;
  };

  /**
   * A session's kept lap figures. A row kept by an older rule (or not settled since a file
   * arrived) is settled first; where that cannot be done now (no settler, a trace too long to
   * analyse on a list's read) the lap.six's figures stand in, kept, until it is.
   */
  async function figuresOf(row: FiguresRow): Promise<LapFigures> {
    if (row.lap_figures && Number(row.figures_version) === FIGURES_VERSION)
      return JSON.parse(row.lap_figures) as LapFigures;
    if (settle) {
      // Settling is the read's extra, never its condition: a session that cannot be analysed now
      // (no track, the file store or the disk away) keeps the figures it has, and the read goes on.
      await settle({ device: row.device_id, track: row.track, date: row.date }).catch(() => undefined);
      const now = await findSession(db, row.id);
      if (now?.lap_figures && Number(now.figures_version) === FIGURES_VERSION)
        return JSON.parse(now.lap_figures) as LapFigures;
      if (now?.lap_figures) return JSON.parse(now.lap_figures) as LapFigures;
    }
    if (row.lap_figures) return JSON.parse(row.lap_figures) as LapFigures;
    const figures = lapFigures(await listLaps(db, row.id));
    await saveLapFigures(db, row.id, JSON.stringify(figures)).catch(() => undefined); // kept next time, if not now (a full disk)
    return figures;
  }

  /** Figures of several rows: one at a time (settling one may analyse its trace). */
  async function figuresOfAll(rows: readonly FiguresRow[]): Promise<LapFigures[]> {
    const out: LapFigures[] = [];
    for (const row of rows) out.push(await figuresOf(row));
    return out;
  }

  return {
    figuresOf,
    figuresOfAll,

    /** Who settles figures kept by an older rule (the tracks service, which is made after the reader). */
    settleFiguresWith(fn: (s: SessionAddress) => Promise<void>): void {
      settle = fn;
    },

    /** A session's figures by the lap.six's rules, kept as settled (no trace, or none timed at a track). */
    async keepLapSixFigures(sessionId: string, files: { lapMd5: string; gpsMd5: string }): Promise<void> {
      await settleLapFigures(
        db,
        sessionId,
        files,
        JSON.stringify(lapFigures(await listLaps(db, sessionId))),
        FIGURES_VERSION,
      );
    },
  };
}

export type SessionFigures = ReturnType<typeof createSessionFigures>;
