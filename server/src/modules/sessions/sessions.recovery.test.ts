import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addDevice, LAP_LINE, put } from '#test/fixtures.ts';
import { sameDatabase, startTestServer } from '#test/test-server.ts';
import { nowIso } from '#server/lib/tokens.ts';

describe('an upload interrupted between the blob write and the index', () => {
  it('is finished at start-up from the blob, or dropped when the blob never changed', async () => {
    const first = await startTestServer({}, { keepDataDir: true, inject: true });
    const token = await addDevice(first, '000000000010', 'a@example.com');
    await put(first, '/api/device/v1/sessions/Interlagos/01112026/lap.six', token, LAP_LINE);
    await put(first, '/api/device/v1/sessions/Curitiba/01112026/lap.six', token, LAP_LINE);

    // Crash after the blob write: the blob holds two laps, the index still one.
    const twoLaps = `${LAP_LINE}\n${LAP_LINE.replace(/\|5$/, '|6')}\n`;
    const meta = await first.blobs.put(
      '000000000010/Interlagos/01112026/lap.six',
      Buffer.from(twoLaps),
      'text/plain; charset=utf-8',
    );
    const intent = {
      device_id: '000000000010',
      date: '01112026',
      kind: 'lap',
      owner_email: 'a@example.com',
      created_at: nowIso(),
    };
    await first.database.db
      .insertInto('upload_intents')
      .values({ ...intent, blob_key: meta.key, md5: meta.md5Hash, track: 'Interlagos' })
      .execute();
    // Crash before the blob write: an intent for bytes that never landed.
    await first.database.db
      .insertInto('upload_intents')
      .values({
        ...intent,
        blob_key: '000000000010/Curitiba/01112026/lap.six',
        md5: 'never-written',
        track: 'Curitiba',
      })
      .execute();
    const dataDir = first.dataDir;
    await first.close();

    const second = await startTestServer(sameDatabase(first), { dataDir, inject: true });
    try {
      const laps = await second.database.db
        .selectFrom('laps')
        .select('lap_count')
        .where('session_id', '=', '000000000010/Interlagos/01112026')
        .orderBy('idx')
        .execute();
      expect(laps.map((l) => l.lap_count)).toEqual([5, 6]);
      const row = await second.database.db
        .selectFrom('lap_sessions')
        .selectAll()
        .where('id', '=', '000000000010/Interlagos/01112026')
        .executeTakeFirstOrThrow();
      expect(row.lap_md5).toBe(meta.md5Hash);
      const curitiba = await second.database.db
        .selectFrom('laps')
        .select('lap_count')
        .where('session_id', '=', '000000000010/Curitiba/01112026')
        .execute();
      expect(curitiba).toHaveLength(1);
      expect(await second.database.db.selectFrom('upload_intents').selectAll().execute()).toEqual([]);
    } finally {
      await second.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
