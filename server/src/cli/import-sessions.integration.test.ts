import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import * as W from '#core/imports/test-support/writers.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { createDatabase } from '../db/create-db';
import { loadTracks } from '../lib/track-files';
import { testDatabaseUrl } from '#test/test-database.ts';
import { run } from './voltas';

// `voltas import` moves a rider's archive over: the same import as the API, from files on disk.

let dataDir: string;
let out: string[];
let databaseUrl: string | undefined;

beforeEach(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'voltas-import-'));
  databaseUrl = await testDatabaseUrl();
  vi.stubEnv('DATA_DIR', dataDir);
  if (databaseUrl) vi.stubEnv('DATABASE_URL', databaseUrl);
  out = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (out.push(String(s)), true));
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('voltas import', () => {
  it('imports an archive for one rider, file by file; a bad file is refused in Portuguese and the others still go in', async () => {
    const track = loadTracks().find((t) => t.name === 'Interlagos')!;
    const gen = generateSession(track, { seed: 5, heats: 1, lapsPerHeat: [3, 3], gpsNoise: 0.2 });
    const c = parseGpsSix(gen.gpsSix).value;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'voltas-archive-'));
    mkdirSync(path.join(dir, 'Interlagos', '02082026'), { recursive: true });
    writeFileSync(path.join(dir, 'Interlagos', '02082026', 'gps.six'), gen.gpsSix);
    writeFileSync(path.join(dir, 'treino.vbo'), W.writeVbo(c, { y: 2026, m: 8, d: 3 }));
    writeFileSync(path.join(dir, 'nota.txt'), 'não é um arquivo de GPS\n');
    const files = [
      path.join(dir, 'Interlagos', '02082026', 'gps.six'),
      path.join(dir, 'treino.vbo'),
      path.join(dir, 'nota.txt'),
    ];
    const unique = `cli-${Date.now()}@example.com`;
    expect(await run(['import', ...files, '--owner', unique, '--track', 'Interlagos Teste'])).toBe(1);
    const text = out.join('');
    expect(text).toMatch(/importado .*gps\.six: Interlagos Teste 02\/08\/2026 \(gps\.six\), \d+ voltas, melhor/);
    expect(text).toMatch(/importado .*treino\.vbo: Interlagos Teste 03\/08\/2026 \(vbo\)/);
    expect(text).toMatch(/recusado .*nota\.txt: Este arquivo não está num formato que o Voltas importa/);
    expect(text).toContain(`2 de 3 arquivos importados para ${unique}`);
    // Again: nothing changes.
    out = [];
    expect(await run(['import', files[0]!, '--owner', unique, '--track', 'Interlagos Teste'])).toBe(0);
    expect(out.join('')).toMatch(/já importado/);
    const database = createDatabase({ dataDir, databaseUrl });
    try {
      const rows = await database.db
        .selectFrom('lap_sessions')
        .select(['device_id', 'track', 'date'])
        .where('owner_email', '=', unique)
        .execute();
      expect(rows.map((r) => r.date).sort()).toEqual(['02082026', '03082026']);
      expect(rows.every((r) => r.device_id.startsWith('imp') && r.track === 'Interlagos Teste')).toBe(true);
    } finally {
      await database.close();
    }
  });

  it('refuses a missing --owner or a bad e-mail', async () => {
    expect(await run(['import', 'x.gpx'])).toBe(2);
    expect(await run(['import', 'x.gpx', '--owner', 'nobody'])).toBe(2);
  });
});
