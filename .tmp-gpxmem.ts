import { parseGpsSix } from './core/formats/gps-six';
import { trimGpsColumns } from './core/formats/gps-columns';
import { ImportReader } from './core/imports/importer';
import { writeGpx } from './core/imports/test-support/writers';
import { generateSession } from './core/sim/session-generator';
import { loadTracks } from './server/src/lib/track-files';
import { SaxesParser } from 'saxes';
const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const gen = generateSession(interlagos, { seed: 8, hz: 25, heats: 4, lapsPerHeat: [25, 25] });
const c = parseGpsSix(gen.gpsSix).value;
const bytes = Buffer.from(writeGpx(trimGpsColumns({ ...c, count: 228000 }), { y: 2026, m: 11, d: 15 }));
const mode = process.argv[2];
(globalThis as any).gc?.();
const m0 = process.memoryUsage();
const t = performance.now();
if (mode === 'sax') {
  const p = new SaxesParser({ position: true });
  let n = 0;
  p.on('opentag', () => n++);
  p.on('text', () => n++);
  const d = new TextDecoder();
  for (let o = 0; o < bytes.length; o += 65536) p.write(d.decode(bytes.subarray(o, o + 65536), { stream: true }));
  p.close();
} else {
  const r = new ImportReader('x');
  for (let o = 0; o < bytes.length; o += 1 << 20) r.push(bytes.subarray(o, o + (1 << 20)));
  r.finish();
}
const m1 = process.memoryUsage();
console.log(mode, (performance.now() - t).toFixed(0), 'ms rss +', ((m1.rss - m0.rss) / 1e6).toFixed(0), 'heap +', ((m1.heapUsed - m0.heapUsed) / 1e6).toFixed(0));
