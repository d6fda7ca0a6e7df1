// A received file's index row: written in one place for an upload and for its recovery after a
// crash, so both leave the same row and announce the same live update.
import type { Kysely } from 'kysely';
import { ddmmyyyyToIso } from '#core/formats/dates.ts';
import type { DB } from '#server/db/schema.ts';
import { inTransaction } from '#server/db/transaction.ts';
import { nowIso } from '#server/lib/tokens.ts';
import type { SessionEvents } from './session-events.service';
import { sessionKey, type SixKind } from './session-files';
import { indexSessionFile } from './sessions.repository';
import type { ParsedSix } from './six-body';
import { deleteIntent } from './upload-intents.repository';

/** Where a file belongs: a device's (or an import collection's) session, and who owns it. */
export interface SessionAddress {
  deviceId: string;
  owner: string;
  track: string;
  date: string;
}

/** The index row and the intent's removal, in one transaction; then the live update. */
export async function commitIndex(
  deps: { db: Kysely<DB>; events: SessionEvents },
  address: SessionAddress,
  kind: SixKind,
  key: string,
  md5: string,
  size: number,
  parsed: ParsedSix,
  /** A gps.six kept only as its derived columns (an import's), of this size. */
  onlyColumns?: number,
): Promise<void> {
  const id = sessionKey(address.deviceId, address.track, address.date);
  await inTransaction(deps.db, async (trx) => {
    await indexSessionFile(
      trx,
      {
        id,
        deviceId: address.deviceId,
        track: address.track,
        date: address.date,
        dateIso: ddmmyyyyToIso(address.date),
        owner: address.owner,
        now: nowIso(),
      },
      kind,
      { md5, size, lines: parsed.lines, problems: parsed.problems, onlyColumns },
      parsed.laps ? { laps: parsed.laps } : { sampleCount: parsed.indexed },
    );
    await deleteIntent(trx, key, md5);
  });
  // A new personal best is announced once the session's figures are settled (jobs.ts): by its one lap list.
  await deps.events.publish(address);
}
