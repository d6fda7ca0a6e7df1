// Coaching: each session's corner study (made once, by the analysis job or a first read, and
// remembered), and a lap read against its reference corner by corner with the three tips.
import type { Kysely } from 'kysely';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import type { CoachingResponse } from '#core/contracts/tracks.contract.ts';
import { AppError } from '#core/errors.ts';
import { bestOf } from '#core/laps/session-laps.ts';
import { GRID_STEP_M } from '#core/tracks/lap-grid.ts';
import { coachingTips, type ReferenceName } from '#core/tracks/coaching-tips.ts';
import { studySession, type SessionStudy } from '#core/tracks/corner-study.ts';
import { coachLap, type CoachingReference } from '#core/tracks/lap-coaching.ts';
import type { Language } from '#core/preferences.ts';
import type { Units } from '#core/units.ts';
import type { TrackAnalysis } from '#core/tracks/track-analysis.ts';
import type { DB } from '#server/db/schema.ts';
import { translate } from '#server/lib/i18n.ts';
import { LruCache } from '#server/lib/lru.ts';
import type { TrackRules } from '#server/plugins/policy.ts';
import type { SessionReader } from '../sessions/session-reader.service';
import { SYSTEM_VIEWER, type Viewer } from '../sessions/sessions.repository';
import { ANALYSES_KEPT, type TrackAnalyses } from './track-analysis.service';
import type { TrackDefinitions } from './track-definitions.service';
import { decodeStudy, encodeStudy, STUDY_FILE, type KeptStudy } from './kept-studies';
import { lapByKey } from './track-presentation';
import { trackOfSession } from './tracks.repository';

export function createTrackCoaching(deps: {
  db: Kysely<DB>;
  reader: SessionReader;
  definitions: TrackDefinitions;
  rules: TrackRules;
  analyses: TrackAnalyses;
}) {
  const { db, reader } = deps;
  const { shapeOf } = deps.definitions;
  const { mayRideTrack } = deps.rules;
  const { analyzed } = deps.analyses;
  /** Each session's corner study, by the same key as its analysis (made by the analysis job, or a first read). */
  const studies = new LruCache<string, Studied>(ANALYSES_KEPT);

  /**
   * A session's corner study (each lap measured corner by corner) with what a coaching read needs of
   * its analysis, by the analysis's key: a session studied already (by the job, on any instance) is
   * read without its trace, from its row, the track it is tied to and the study kept beside its files.
   */
  async function studied(viewer: Viewer, s: SessionAddress, mayCreateTrack = true): Promise<Studied> {
    const row = await reader.figureInputs(viewer, s);
    const tied = await trackOfSession(db, row.sessionId);
    if (tied && mayRideTrack(row.ownerEmail, tied)) {
      const key = `${row.sessionId}@${row.files.gpsMd5}@${row.files.lapMd5}#${tied.id}#${shapeOf(tied)}`;
      const known = studies.get(key) ?? (await keptStudy(row, tied.id, key));
      if (known) return known;
    }
    const at = await analyzed(viewer, s, mayCreateTrack);
    const known = studies.get(at.key);
    if (known) return known;
    const made: Studied = {
      key: at.key,
      ownerEmail: at.inputs.ownerEmail,
      track: at.track,
      corners: at.definition.corners,
      analysis: at.analysis,
      list: at.list,
      study: studySession(at.trace, at.definition, at.analysis),
    };
    studies.set(at.key, made);
    // Kept for the other instances (and this one's next start); a study not kept is made again there.
    await reader.keepDerivedFile(row.sessionId, STUDY_FILE, await encodeStudy(at.key, made)).catch(() => undefined);
    return made;
  }

  /** The study another instance (or this one before a restart) kept of this version of the session, if any. */
  async function keptStudy(
    row: { sessionId: string; ownerEmail: string },
    trackId: string,
    key: string,
  ): Promise<Studied | undefined> {
    const bytes = await reader.derivedFile(row.sessionId, STUDY_FILE).catch(() => undefined);
    const kept = bytes && (await decodeStudy(bytes, key));
    if (!kept) return undefined;
    const found: Studied = { ...kept, key, ownerEmail: row.ownerEmail, track: { id: trackId } };
    studies.set(key, found);
    return found;
  }

  /** The lap the rider rode fastest at this session's circuit, in any of the owner's sessions the viewer may read. */
  async function recordOf(viewer: Viewer, owner: string, s: SessionAddress) {
    let best: { address: SessionAddress; lap: string; ms: number } | undefined;
    for (const row of await reader.ownFigures(owner, s.track)) {
      const f = row.figures;
      if (f.bestLapMs === null || !f.bestLap || (best && best.ms <= f.bestLapMs)) continue;
      best = {
        address: { device: row.device, track: row.track, date: row.date },
        lap: `${f.bestLap.heat}${f.bestLap.lapCount}`,
        ms: f.bestLapMs,
      };
    }
    if (!best) throw new AppError('storage/object-not-found', 'No record at this track yet.');
    return { ...(await studied(viewer, best.address)), lapKey: best.lap, address: best.address };
  }

  return {
    studiesCached: () => studies.size,

    /**
     * Studies a session that just arrived (the analysis job), so that its coaching is a read.
     * A session the job cannot study (no trace, no track) is left to its first read.
     */
    async studyArrived(s: SessionAddress): Promise<void> {
      try {
        await studied(SYSTEM_VIEWER, s, false);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
      }
    },

    /**
     * A lap against its reference corner by corner (the session's study, made once), the three
     * tips in the rider's language and units, the ideal lap's pieces, the g-g points and profiles:
     * its version (everything the answer is made of: the studies' keys, the lap, the reference,
     * the units and the language), so that callers may keep one answer per version, and how to
     * build it.
     */
    async coaching(
      viewer: Viewer,
      s: SessionAddress,
      query: { lap?: string; ref: string; units: Units },
      language: Language,
    ): Promise<{ version: string; build: () => CoachingResponse }> {
      const at = await studied(viewer, s);
      const keyOf = (n: number | null) => {
        const k = n === null ? -1 : at.analysis.laps.findIndex((l) => l.number === n);
        return k < 0 ? null : `${at.list[k]!.heat}${at.list[k]!.number}`;
      };
      const best = bestOf(at.list);
      const lapKey = query.lap ?? (best < 0 ? '' : `${at.list[best]!.heat}${at.list[best]!.number}`);
      const lap = lapByKey(at, lapKey);
      let reference: CoachingReference;
      let name: ReferenceName;
      let session: SessionAddress | null = null;
      let refKey: string | null = null;
      let refStudyKey = at.key;
      if (query.ref === 'ideal') {
        if (at.study.ideal.seconds === null)
          throw new AppError('storage/object-not-found', 'This session has no ideal lap.');
        reference = { kind: 'ideal', study: at.study };
        name = { kind: 'ideal' };
      } else if (query.ref === 'record') {
        const record = await recordOf(viewer, at.ownerEmail, s);
        if (record.track.id !== at.track.id) throw new AppError('track/different-tracks');
        const refLap = lapByKey(record, record.lapKey);
        reference = { kind: 'lap', study: record.study, lap: refLap.lap.number, sameSession: record.key === at.key };
        name = { kind: 'record' };
        session = record.address;
        refKey = record.lapKey;
        refStudyKey = record.key;
      } else {
        const refLap = lapByKey(at, query.ref);
        reference = { kind: 'lap', study: at.study, lap: refLap.lap.number, sameSession: true };
        name = refLap.lap.number === at.analysis.bestLap ? { kind: 'best' } : { kind: 'lap', lap: query.ref };
        refKey = query.ref;
      }
      const study = coachLap(at.study, lap.lap.number, reference, at.corners);
      if (!study) throw new AppError('storage/object-not-found', 'No such complete lap in this session.');
      const version = [at.key, lapKey, query.ref, refStudyKey, refKey, query.units, language].join('|');
      const build = (): CoachingResponse => {
        const studiedLap = at.study.laps.find((l) => l.number === lap.lap.number)!;
        const refGrid =
          reference.kind === 'lap'
            ? reference.study.laps.find((l) => l.number === reference.lap)!.grid
            : idealGrid(at.study, at.analysis);
        return {
          lap: lapKey,
          ref: query.ref,
          reference: { kind: study.reference.kind, lap: refKey, session, seconds: study.reference.seconds },
          deltaSeconds: study.deltaSeconds,
          timeAccuracyS: study.timeAccuracyS,
          hz: at.study.hz,
          leanSource: study.leanSource,
          corners: study.corners.map((c) => ({
            ...c,
            apex: at.corners.find((k) => k.number === c.corner)!.apex,
            referenceLap: (reference.kind === 'lap' ? refKey : keyOf(c.referenceLap)) ?? '',
          })),
          tips: coachingTips(study, translate(language), language, query.units, name),
          ideal: {
            seconds: at.study.ideal.seconds,
            laps: at.study.ideal.laps.map(keyOf),
            joins: at.analysis.ideal.joins.map((j) => ({ ...j, from: keyOf(j.from) ?? '', to: keyOf(j.to) ?? '' })),
          },
          gg: {
            lateral: studiedLap.gg.map((p) => p[0]),
            longitudinal: studiedLap.gg.map((p) => p[1]),
            envelope: at.study.ggEnvelope,
          },
          // Every PROFILE_EVERY-th point of the grid: a phone's chart is a few hundred pixels wide.
          profile: {
            stepM: GRID_STEP_M * PROFILE_EVERY,
            speed: [thinned(studiedLap.grid.speed), thinned(refGrid.speed)],
            lean: [thinned(studiedLap.grid.lean), thinned(refGrid.lean)],
          },
          lapStartMs: lap.lap.start.ms,
        };
      };
      return { version, build };
    },
  };
}

/** The coaching answer's profiles keep every this-many points of the 5 m grid. */
const PROFILE_EVERY = 2;
const thinned = <T>(values: readonly T[]) => values.filter((_, k) => k % PROFILE_EVERY === 0);

/** A session's corner study and what a coaching read needs beside it (no trace). */
interface Studied extends KeptStudy {
  key: string;
  ownerEmail: string;
  track: { id: string };
}

/** The ideal lap on the position grid: each section from the lap that gave it (their grids, in the study). */
function idealGrid(
  study: SessionStudy,
  analysis: TrackAnalysis,
): { speed: (number | null)[]; lean: (number | null)[] } {
  const length = study.laps[0]?.grid.speed.length ?? 0;
  const speed: (number | null)[] = [];
  const lean: (number | null)[] = [];
  for (let g = 0; g < length; g++) {
    const d = g * GRID_STEP_M;
    const section = analysis.sections.findIndex((s) => d >= s.fromM && d < s.toM);
    const n = analysis.ideal.sections[section < 0 ? analysis.sections.length - 1 : section]?.lap;
    const lap = n == null ? undefined : study.laps.find((l) => l.number === n);
    speed.push(lap?.grid.speed[g] ?? null);
    lean.push(lap?.grid.lean[g] ?? null);
  }
  return { speed, lean };
}
