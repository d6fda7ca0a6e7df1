import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { testDatabaseUrl } from '#test/test-database.ts';
import { createDatabase } from './create-db';
import { migrateToLatest } from './migrate';
import * as orphanVideoSyncs from './migrations/0016-orphan-video-syncs';
import * as rolloutHaltCode from './migrations/0021-rollout-halt-code';

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

it('0021 turns the halt sentences stored before into a code and its figures', async () => {
  const database = createDatabase({ dataDir, databaseUrl: await testDatabaseUrl() });
  try {
    const db = database.db;
    await migrateToLatest(db);
    const raw = db as unknown as Kysely<unknown>;
    await rolloutHaltCode.down(raw);
    for (const [id, state, reason] of [
      ['halted', 'halted', '3 of 4 devices failed (75 % > 30 %)'],
      ['running', 'running', ''],
    ])
      await sql`insert into rollouts (id, firmware_id, cohorts, percent, failure_threshold_pct, min_devices,
        min_battery_pct, state, halt_reason, created_at, updated_at, created_by)
        values (${id}, 'f', '["all"]', 50, 30, 4, 30, ${state}, ${reason}, 'x', 'x', 'a@example.com')`.execute(raw);
    await rolloutHaltCode.up(raw);
    const rows = await db.selectFrom('rollouts').select(['id', 'halt_reason', 'halt_figures']).orderBy('id').execute();
    expect(rows.map((r) => ({ ...r, halt_figures: JSON.parse(r.halt_figures) as unknown }))).toEqual([
      {
        id: 'halted',
        halt_reason: 'failure-threshold',
        halt_figures: { failed: 3, judged: 4, threshold: 30 },
      },
      { id: 'running', halt_reason: '', halt_figures: {} },
    ]);
  } finally {
    await database.close();
  }
});
