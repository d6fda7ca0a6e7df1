/**
 * The product's own gps.six, imported from a rider's files: its times are UTC times of day, so
 * the day comes from the file's name or folder (ddmmyyyy, as the device names its folders).
 */
import { AppError } from '../errors';
import { parseDdmmyyyy } from '../formats/dates';
import { allocGpsColumns } from '../formats/gps-columns';
import { parseGpsLineStrict } from '../formats/gps-six';
import { Problems } from '../formats/six-lines';
import { lineReader, TraceBuilder, type FormatReader } from './trace';

const DAY_MS = 86_400_000;

/** The first ddmmyyyy in a file name or path that is a real date. */
function dateInName(name: string): string | undefined {
  for (const m of name.matchAll(/(?<!\d)(\d{8})(?!\d)/g)) if (parseDdmmyyyy(m[1]!)) return m[1];
  return undefined;
}

export function createGpsSixReader(filename: string): FormatReader {
  const date = dateInName(filename);
  const parsed = date ? parseDdmmyyyy(date)! : undefined;
  if (!parsed)
    throw new AppError(
      'import/no-date',
      'A gps.six holds times of day only: put its date in the file name as ddmmyyyy (15112026_gps.six, or its folder Interlagos/15112026/gps.six); nothing was stored.',
      undefined,
      { id: 'imports.refused.gpsSixNoDate' },
    );
  const dayStart = Date.UTC(parsed.y, parsed.m - 1, parsed.d);
  const out = new TraceBuilder();
  const problems = new Problems();
  const one = allocGpsColumns(1);
  let day = 0;
  let lastTod: number | undefined;
  const row = (line: string, n: number) => {
    if (line.trim() === '') return;
    one.count = 0;
    if (!parseGpsLineStrict(line, n, problems, one)) {
      out.counts.badLines++;
      return;
    }
    const tod = one.timeMs[0]!;
    if (lastTod !== undefined && tod < lastTod - DAY_MS / 2) day++;
    lastTod = tod;
    out.addFix(
      dayStart + day * DAY_MS + tod,
      one.lat[0]!,
      one.lon[0]!,
      one.speed[0]!,
      one.satellites[0]!,
      one.leanFiltered[0]!,
    );
  };
  return lineReader(
    out,
    row,
    (line) => parseGpsLineStrict(line, 0, new Problems(), allocGpsColumns(1)),
    (lines) => ({ format: 'gps.six', trace: out.trace(), loggerLaps: [], warnings: out.warnings(), lines }),
  );
}
