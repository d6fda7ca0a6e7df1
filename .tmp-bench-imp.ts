import { benchImports } from './bench/imports';
import { loadTracks } from './server/src/lib/track-files';
const r = await benchImports(process.cwd(), loadTracks().find((t) => t.name === 'Interlagos')!, process.argv[2] === 'quick');
for (const x of r) console.log(x.key, x.mb.toFixed(1), 'MB import', x.importMs.toFixed(0), 'base', x.baselineMs.toFixed(0), 'ratio', x.ratio.toFixed(2), 'mem', x.memoryGrowthMb.toFixed(1), 'laps', x.laps);
