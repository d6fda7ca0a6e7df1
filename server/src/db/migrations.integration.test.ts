import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { testDatabaseUrl } from '#test/test-database.ts';
import { createDatabase } from './create-db';
import { migrateToLatest } from './migrate';
import * as orphanVideoSyncs from './migrations/0016-orphan-video-syncs';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'voltas-migrations-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const syncOf = (sessionId: string, id: string) => ({
  owner_email: 'a@example.com',
  session_id: sessionId,
  id,
  name: 'GX010001.MP4',
  size: 1000,
  fingerprint: 'f'.repeat(64),
  offset_ms: 0,
  drift_ppm: 0,
  method: 'manual',
  error_ms: 100,
  updated_at: '2026-11-26T00:00:00.000Z',
});

it('0016 forgets the video syncs of sessions deleted before deletes took them along', async () => {
  const database = createDatabase({ dataDir, databaseUrl: await testDatabaseUrl() });
  try {
    const db = database.db;
    await migrateToLatest(db);
    await db
      .insertInto('lap_sessions')
      .values({
        id: 'kept',
        device_id: '000000000001',
        track: 'Interlagos',
        date: '01112026',
        date_iso: '2026-11-01',
        owner_email: 'a@example.com',
        lap_figures: null,
        figures_version: null,
        created_at: '2026-11-01T00:00:00.000Z',
        updated_at: '2026-11-01T00:00:00.000Z',
      })
      .execute();
    await db
      .insertInto('video_syncs')
      .values([syncOf('kept', 'v1'), syncOf('deleted-long-ago', 'v2')])
      .execute();
    await orphanVideoSyncs.up(db as unknown as Kysely<unknown>);
    const left = await db.selectFrom('video_syncs').select(['session_id', 'id']).execute();
    expect(left).toEqual([{ session_id: 'kept', id: 'v1' }]);
  } finally {
    await database.close();
  }
});
