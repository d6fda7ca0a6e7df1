/**
 * GPX 1.0 and 1.1: track points with their time; speed from GPX 1.0's `<speed>` (m/s) or a
 * Garmin TrackPointExtension `speed` under any prefix (m/s), else computed later from positions;
 * satellites from `<sat>`. Read as a stream (xml-scan.ts); a DTD is refused before it is parsed,
 * so no entity is ever declared, let alone expanded or fetched.
 */
import { AppError } from '../errors';
import { num, TraceBuilder, type FormatReader, type ImportedFile } from './trace';
import { attributeOf, XmlScanner, type XmlEvents } from './xml-scan';

/** `<!DOCTYPE` or `<!ENTITY` anywhere: the file is refused at once. */
const DTD_RE = /<!(DOCTYPE|ENTITY)/i;

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

/**
 * A GPX time in ms: the usual `YYYY-MM-DDThh:mm:ss[.fff]Z` read digit by digit (Date.parse took a
 * tenth of a large GPX's reading); anything else as Date.parse reads it, which the tests hold this to.
 */
export function isoMs(text: string): number {
  const s = text.trim();
  const n = s.length;
  const d = (at: number) => s.charCodeAt(at) - 48;
  const ok =
    n >= 20 &&
    s.charCodeAt(4) === 45 &&
    s.charCodeAt(7) === 45 &&
    s.charCodeAt(10) === 84 &&
    s.charCodeAt(13) === 58 &&
    s.charCodeAt(16) === 58 &&
    s.charCodeAt(n - 1) === 90;
  if (!ok || (n > 20 && (s.charCodeAt(19) !== 46 || n === 21 || n > 24))) return Date.parse(s);
  let v = 0;
  for (const at of DIGITS) {
    const x = d(at);
    if (x < 0 || x > 9) return Date.parse(s);
    v = v * 10 + x;
  }
  // v is now YYYYMMDDhhmmss as one number.
  const [year, month, day, hour, minute, second] = [
    Math.floor(v / 1e10),
    Math.floor(v / 1e8) % 100,
    Math.floor(v / 1e6) % 100,
    Math.floor(v / 1e4) % 100,
    Math.floor(v / 100) % 100,
    v % 100,
  ];
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return Date.parse(s);
  let ms = 0;
  for (let at = 20, scale = 100; at < n - 1; at++, scale /= 10) {
    const x = d(at);
    if (x < 0 || x > 9) return Date.parse(s);
    ms += x * scale;
  }
  const t = Date.UTC(year, month - 1, day, hour, minute, second, Math.round(ms));
  return new Date(t).getUTCDate() === day ? t : Date.parse(s); // 31 April: as Date.parse has it
}
const DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];

interface Point {
  lat: number;
  lon: number;
  time?: number;
  speed?: number;
  sats?: number;
  lean?: number;
}

/** The points of a GPX from its XML events, whichever XML reader gives them. */
export class GpxPoints implements XmlEvents {
  readonly out = new TraceBuilder();
  points = 0;
  private point: Point | undefined;
  private field: 'time' | 'speed' | 'sat' | 'lean' | undefined;
  private value = '';
  private trackName: string | undefined;
  private inName = false;
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
      if (lat === undefined || lon === undefined) {
        this.out.counts.badLines++;
        this.point = undefined;
      } else this.point = { lat, lon };
      return;
    }
    if (this.point && (name === 'time' || name === 'speed' || name === 'sat')) {
      this.field = name;
      this.value = '';
    } else if (this.point && name === 'lean') {
      this.field = 'lean';
      this.value = '';
    } else if (!this.point && name === 'name' && this.trackName === undefined && this.depth <= 3) {
      this.inName = true;
      this.value = '';
    }
  }

  wantsText(): boolean {
    return this.field !== undefined || this.inName;
  }

  text(t: string): void {
    if (this.wantsText()) this.value += t;
  }

  close(tag: string): void {
    const name = this.depth > 0 ? this.open_[--this.depth]! : kindOf(tag);
    const point = this.point;
    if (this.inName && name === 'name') {
      this.inName = false;
      this.trackName = this.value.trim().slice(0, 64) || undefined;
      return;
    }
    if (point && this.field) {
      if (this.field === 'time') {
        const t = isoMs(this.value);
        if (Number.isFinite(t)) point.time = t;
      } else if (this.field === 'speed') point.speed = num(this.value);
      else if (this.field === 'sat') point.sats = num(this.value);
      else point.lean = num(this.value);
      this.field = undefined;
      return;
    }
    if (point && name === 'point') {
      if (point.time === undefined) this.out.counts.badLines++;
      else
        this.out.add({
          timeMs: point.time,
          lat: point.lat,
          lon: point.lon,
          speedKmh: point.speed === undefined ? undefined : point.speed * 3.6,
          satellites: point.sats,
          leanDeg: point.lean,
        });
      this.point = undefined;
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
    if (DTD_RE.test(tail + chunk)) throw new AppError('import/xml-dtd');
    tail = chunk.slice(-16);
  };
}

export function createGpxReader(): FormatReader {
  const points = new GpxPoints();
  const xml = new XmlScanner(points);
  const guard = dtdGuard();
  return {
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
