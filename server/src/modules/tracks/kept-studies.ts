// A session's corner study kept beside its files in the blob store, so that every instance reads
// the one the analysis job made instead of studying the session again (issue 62, decision 036).
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { ListedLap } from '#core/laps/session-laps.ts';
import type { SessionStudy } from '#core/tracks/corner-study.ts';
import type { TrackAnalysis, TrackDefinition } from '#core/tracks/track-analysis.ts';

/** Bumped when what the study measures changes: a study kept by an older rule is made again. */
const STUDY_VERSION = 1;

/** One file per session, overwritten by each new study: a moved gate or a new gps.six leaves nothing behind. */
export const STUDY_FILE = 'corner-study.json.gz';

/** What a coaching read needs of a session besides its row and its track: no trace. */
export interface KeptStudy {
  corners: TrackDefinition['corners'];
  analysis: TrackAnalysis;
  list: ListedLap[];
  study: SessionStudy;
}

const zip = promisify(gzip);
const unzip = promisify(gunzip);

/**
 * The study as kept: a first line naming its rule and its key (the analysis's: the session's
 * files and the track's shape), then the study itself.
 */
export async function encodeStudy(key: string, kept: KeptStudy): Promise<Buffer> {
  const { corners, analysis, list, study } = kept;
  const head = JSON.stringify({ version: STUDY_VERSION, key });
  return zip(`${head}\n${JSON.stringify({ corners, analysis, list, study })}`);
}

/**
 * The kept study, if it is of this key and rule; undefined for another version of the session or
 * of the track, an older rule, or bytes that do not read (it is made again then).
 */
export async function decodeStudy(bytes: Buffer, key: string): Promise<KeptStudy | undefined> {
  try {
    const text = (await unzip(bytes)).toString('utf8');
    const cut = text.indexOf('\n');
    if (cut < 0) return undefined;
    const head = JSON.parse(text.slice(0, cut)) as { version?: unknown; key?: unknown };
    if (head.version !== STUDY_VERSION || head.key !== key) return undefined;
    return JSON.parse(text.slice(cut + 1)) as KeptStudy;
  } catch {
    return undefined;
  }
}
