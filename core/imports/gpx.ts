/**
 * GPX 1.0 and 1.1: track points with their time; speed from GPX 1.0's `<speed>` (m/s) or a
 * Garmin TrackPointExtension `speed` under any prefix (m/s), else computed later from positions;
 * satellites from `<sat>`. Read as a stream (xml-scan.ts); a DTD is refused before it is parsed,
 * so no entity is ever declared, let alone expanded or fetched.
 */
import { AppError } from '../errors';
import { num, numIn, TraceBuilder, type FormatReader, type ImportedFile } from './trace';
import { attributeOf, XmlScanner, type XmlEvents } from './xml-scan';

/** `<!DOCTYPE` or `<!ENTITY`: the file is refused at once. */
const DTD_RE = /^<!(DOCTYPE|ENTITY)/i;

/** Whether `text` declares a DTD anywhere (found by indexOf: a regular expression over every piece took a twentieth of the reading). */
function declaresDtd(text: string): boolean {
  for (let at = text.indexOf('<!'); at >= 0; at = text.indexOf('<!', at + 2)) if (DTD_RE.test(text.slice(at, at + 9))) return true;
  return false;
}

type Kind = 'point' | 'time' | 'speed' | 'sat' | 'lean' | 'name' | 'other';

const KINDS: Record<string, Kind> = { trkpt: 'point', rtept: 'point', time: 'time', speed: 'speed', sat: 'sat', lean: 'lean', leanangle: 'lean', name: 'name' };

/** What an element is, whatever its prefix or case (a file uses a handful of names: each is worked out once). */
const kinds = new Map<string, Kind>();
function kindOf(tag: string): Kind {
  let kind = kinds.get(tag);
  if (kind === undefined) {
    kind = KINDS[tag.slice(tag.indexOf(':') + 1).toLowerCase()] ?? 'other';
    if (kinds.size < 1000) kinds.set(tag, kind);
  }
  return kind;
}

const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13);

/**
 * A GPX time in ms: the usual `YYYY-MM-DDThh:mm:ss[.fff]Z` read digit by digit (Date.parse took a
 * tenth of a large GPX's reading); anything else as Date.parse reads it, which the tests hold this to.
 */
export function isoMs(text: string): number {
  return isoMsIn(text, 0, text.length);
}

/** `isoMs` of the characters from..to of `s`, read in place. */
export function isoMsIn(s: string, from: number, to: number): number {
  while (from < to && isSpace(s.charCodeAt(from))) from++;
  while (to > from && isSpace(s.charCodeAt(to - 1))) to--;
  const n = to - from;
  const ok =
    n >= 20 &&
    s.charCodeAt(from + 4) === 45 &&
    s.charCodeAt(from + 7) === 45 &&
    s.charCodeAt(from + 10) === 84 &&
    s.charCodeAt(from + 13) === 58 &&
    s.charCodeAt(from + 16) === 58 &&
    s.charCodeAt(to - 1) === 90;
  if (!ok || (n > 20 && (s.charCodeAt(from + 19) !== 46 || n === 21 || n > 24))) return Date.parse(s.slice(from, to));
  const year = digitsAt(s, from, 4);
  const month = digitsAt(s, from + 5, 2);
  const day = digitsAt(s, from + 8, 2);
  const hour = digitsAt(s, from + 11, 2);
  const minute = digitsAt(s, from + 14, 2);
  const second = digitsAt(s, from + 17, 2);
  const outOfRange = year < 1000 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 || minute > 59;
  if (outOfRange || second < 0 || second > 59) return Date.parse(s.slice(from, to));
  const fraction = n > 20 ? digitsAt(s, from + 20, n - 21) : 0;
  if (fraction < 0) return Date.parse(s.slice(from, to));
  const ms = n > 20 ? fraction * (n === 22 ? 100 : n === 23 ? 10 : 1) : 0;
  if (day > daysInMonth(year, month)) return Date.parse(s.slice(from, to)); // 31 April: as Date.parse has it
  return daysFromCivil(year, month, day) * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000 + ms;
}

const daysInMonth = (y: number, m: number) =>
  m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;

/** Days from 1970-01-01 to y-m-d, as Date.UTC counts them (H. Hinnant's days_from_civil; no Date made per point). */
function daysFromCivil(y: number, m: number, d: number): number {
  const year = m <= 2 ? y - 1 : y;
  const era = Math.floor(year / 400);
  const yoe = year - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

/** The `count` decimal digits at `at` as a number; -1 if one is not a digit. */
function digitsAt(s: string, at: number, count: number): number {
  let v = 0;
  for (let k = 0; k < count; k++) {
    const x = s.charCodeAt(at + k) - 48;
    if (x < 0 || x > 9) return -1;
    v = v * 10 + x;
  }
  return v;
}

type Field = 'time' | 'speed' | 'sat' | 'lean' | 'name';

/** The points of a GPX from its XML events, whichever XML reader gives them. */
export class GpxPoints implements XmlEvents {
  readonly out = new TraceBuilder();
  points = 0;
  /** Whether a point with a position is being read; its fields (NaN: not in the file, or not yet). */
  private inPoint = false;
  private lat = NaN;
  private lon = NaN;
  private time = NaN;
  private speed = NaN;
  private sats = NaN;
  private lean = NaN;
  /** The element whose text is wanted, and that text: in place in `src` while it is one piece. */
  private field: Field | undefined;
  private src = '';
  private from = 0;
  private to = 0;
  private pieces = 0;
  private trackName: string | undefined;
  private depth = 0;
  /** The kind of each open element, by depth (a close is not looked up again). */
  private open_: Kind[] = [];

  open(tag: string, attributes: readonly string[]): void {
    const name = kindOf(tag);
    this.open_[this.depth++] = name;
    if (name === 'point') {
      const lat = num(attributeOf(attributes, 'lat'));
      const lon = num(attributeOf(attributes, 'lon'));
      this.points++;
      this.inPoint = lat !== undefined && lon !== undefined;
      if (!this.inPoint) this.out.counts.badLines++;
      this.lat = lat ?? NaN;
      this.lon = lon ?? NaN;
      this.time = this.speed = this.sats = this.lean = NaN;
      return;
    }
    const wanted =
      (this.inPoint && (name === 'time' || name === 'speed' || name === 'sat' || name === 'lean')) ||
      (!this.inPoint && name === 'name' && this.trackName === undefined && this.depth <= 3);
    if (wanted) {
      this.field = name;
      this.pieces = 0;
      this.from = this.to = 0;
    }
  }

  wantsText(): boolean {
    return this.field !== undefined;
  }

  text(source: string, from: number, to: number): void {
    if (this.field === undefined) return;
    if (this.pieces++ === 0) {
      this.src = source;
      this.from = from;
      this.to = to;
      return;
    }
    const joined = this.src.slice(this.from, this.to) + source.slice(from, to);
    this.src = joined;
    this.from = 0;
    this.to = joined.length;
  }

  close(tag: string): void {
    const name = this.depth > 0 ? this.open_[--this.depth]! : kindOf(tag);
    const field = this.field;
    if (field === 'name') {
      if (name !== 'name') return;
      this.field = undefined;
      this.trackName = this.src.slice(this.from, this.to).trim().slice(0, 64) || undefined;
      return;
    }
    if (this.inPoint && field) {
      if (field === 'time') this.time = isoMsIn(this.src, this.from, this.to);
      else {
        const v = numIn(this.src, this.from, this.to) ?? NaN;
        if (field === 'speed') this.speed = v;
        else if (field === 'sat') this.sats = v;
        else this.lean = v;
      }
      this.field = undefined;
      this.src = '';
      return;
    }
    if (this.inPoint && name === 'point') {
      if (!Number.isFinite(this.time)) this.out.counts.badLines++;
      else this.out.addFix(this.time, this.lat, this.lon, this.speed * 3.6, this.sats, this.lean);
      this.inPoint = false;
    }
  }

  /** What was read; `failedAtLine` where the XML stopped being readable. */
  result(failedAtLine: number | undefined): ImportedFile {
    if (failedAtLine !== undefined) this.out.truncatedAt = failedAtLine;
    if (this.points === 0 && failedAtLine === undefined)
      throw new AppError(
        'import/no-fix',
        'No <trkpt> in the file; nothing was stored.',
        undefined,
        'O arquivo GPX não tem nenhum ponto de trajeto (<trkpt>); nada foi gravado.',
      );
    const trackName = this.trackName;
    return { format: 'gpx', trace: this.out.trace(), loggerLaps: [], ...(trackName ? { trackName } : {}), warnings: this.out.warnings(), lines: this.points };
  }
}

/** Refuses a DTD in any piece (the text is checked as it arrives, across the pieces' seams). */
export function dtdGuard(): (chunk: string) => void {
  let tail = '';
  return (chunk) => {
    if (declaresDtd(tail + chunk.slice(0, 16)) || declaresDtd(chunk)) throw new AppError('import/xml-dtd');
    tail = chunk.slice(-16);
  };
}

export function createGpxReader(): FormatReader {
  const points = new GpxPoints();
  const xml = new XmlScanner(points);
  const guard = dtdGuard();
  return {
    fixes: points.out,
    write(chunk: string) {
      guard(chunk); // even after the XML broke: a file with a DTD is refused whole
      xml.write(chunk);
    },
    end(): ImportedFile {
      xml.end();
      return points.result(xml.failedAtLine);
    },
  };
}
