/**
 * The reference gps.six parser, split-based and plain: the fast path must agree with it on every
 * input (property tests, fuzzing). Not product code.
 */
import { parseGpsLineStrict } from '../gps-six';
import { allocGpsColumns, trimGpsColumns, type GpsColumns } from '../gps-columns';
import { lines, Problems, type ParseResult } from '../six-lines';

export function parseGpsSixReference(text: string): ParseResult<GpsColumns> {
  const problems = new Problems();
  let capacity = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) capacity++;
  const c = allocGpsColumns(capacity);
  let count = 0;
  for (const [n, line] of lines(text)) {
    count++;
    parseGpsLineStrict(line, n, problems, c);
  }
  return { value: trimGpsColumns(c), problems: problems.list, lines: count };
}
