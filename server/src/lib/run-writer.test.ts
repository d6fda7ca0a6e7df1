import { randomBytes } from 'node:crypto';
import { mkdtempSync, promises as fs, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunWriter } from './run-writer';

describe('RunWriter', () => {
  it('writes every piece, in order, whatever their sizes', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'voltas-run-')), 'out');
    const pieces = [0, 1, 65_536, 3, 1 << 20, 7, 2_000_000, 65_536].map((n) => randomBytes(n));
    const out = await fs.open(file, 'w');
    const writer = new RunWriter(out);
    for (const p of pieces) await writer.write(p);
    await writer.end();
    await out.close();
    expect(readFileSync(file).equals(Buffer.concat(pieces))).toBe(true);
  });

  it('a write that fails is reported, not lost', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'voltas-run-')), 'out');
    writeFileSync(file, '');
    const out = await fs.open(file, 'r'); // read-only: every write fails
    const writer = new RunWriter(out, 10);
    const failed = (async () => {
      for (let k = 0; k < 5; k++) await writer.write(Buffer.alloc(8));
      await writer.end();
    })();
    await expect(failed).rejects.toThrow();
    await writer.settled();
    await out.close();
  });
});
