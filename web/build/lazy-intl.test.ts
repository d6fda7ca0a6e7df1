import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { lazyUplotIntl } from './lazy-intl';

const uplotSource = readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('uplot/package.json')), 'dist/uPlot.esm.js'), 'utf8');
const dir = mkdtempSync(path.join(os.tmpdir(), 'voltas-lazy-intl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Evaluates a uPlot source as a module and counts the Intl objects made meanwhile. */
async function evaluate(source: string, name: string) {
  const made: string[] = [];
  const { NumberFormat, DateTimeFormat } = Intl;
  const file = path.join(dir, `${name}.mjs`);
  writeFileSync(file, source);
  Intl.NumberFormat = function (...args: ConstructorParameters<typeof NumberFormat>) {
    made.push('NumberFormat');
    return new NumberFormat(...args);
  } as typeof NumberFormat;
  Intl.DateTimeFormat = function (...args: ConstructorParameters<typeof DateTimeFormat>) {
    made.push('DateTimeFormat');
    return new DateTimeFormat(...args);
  } as typeof DateTimeFormat;
  try {
    const mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { default: { fmtNum: (n: number) => string } };
    const atLoad = [...made];
    const formatted = mod.default.fmtNum(1234.5);
    return { atLoad, afterUse: [...made], formatted };
  } finally {
    Intl.NumberFormat = NumberFormat;
    Intl.DateTimeFormat = DateTimeFormat;
  }
}

describe('lazy-intl build step', () => {
  it('uPlot as installed makes both Intl objects as it loads (what this step is for)', async () => {
    expect((await evaluate(uplotSource, 'as-installed')).atLoad).toEqual(['NumberFormat', 'DateTimeFormat']);
  });

  it('after the step it makes none as it loads, and its number format still works when used', async () => {
    const r = await evaluate(lazyUplotIntl(uplotSource), 'lazy');
    expect(r.atLoad).toEqual([]);
    expect(r.afterUse).toEqual(['NumberFormat']);
    expect(r.formatted).toBe(new Intl.NumberFormat('en-US').format(1234.5));
  });

  it('fails the build when uPlot no longer has the lines it rewrites', () => {
    expect(() => lazyUplotIntl(uplotSource.replace('const localTz =', 'const localTimeZone ='))).toThrow(/uPlot's source changed/);
  });
});
