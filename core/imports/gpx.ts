/**
 * GPX 1.0 and 1.1: track and route points with their time; speed from GPX 1.0's `<speed>` (m/s) or
 * a Garmin TrackPointExtension `speed` under any prefix (m/s), else computed later from positions;
 * satellites from `<sat>`, lean from `<lean>`. Read as a stream with saxes, within bounds whatever
 * the file holds: a DTD is refused before saxes sees it (so no entity is ever declared, let alone
 * expanded or fetched); a tag with too many or too long attributes, or a stretch with no tag in it
 * (saxes holds a tag, a text, a comment whole until it ends), is refused; the reading stops past
 * MAX_DEPTH levels; text is kept only of the elements read, and only so much of it; a file that is
 * mostly markup with no fixes is refused at its first megabyte short of them.
 */
import { SaxesParser, type SaxesAttributePlain, type SaxesTagPlain } from 'saxes';
import { AppError, type MessageRef } from '../errors';
import { num } from '../formats/numbers';
import { TraceBuilder, type FormatReader, type ImportedFile } from './trace';

/** A GPX nests six deep; past this the reading stops (a file of opening tags would hold one name per tag). */
const MAX_DEPTH = 64;
/** A GPX element has a handful of attributes (lat, lon; version, creator and a few xmlns on the root). */
export const MAX_ATTRIBUTES = 64;
/** Longest attribute value: a schemaLocation naming a few schemas is the longest a GPX has. */
export const MAX_ATTRIBUTE_CHARS = 4096;
/** Most characters read without a tag opened or closed: a GPX has one every few dozen. */
export const MAX_RUN_CHARS = 65_536;
/** Characters handed to saxes at a time, so that an overlong run is noticed soon after MAX_RUN_CHARS. */
const PIECE_CHARS = 16_384;
/** Text kept of an element read: a time or a number is far shorter (longer is no time or number); a name keeps its start. */
export const MAX_TEXT_CHARS = { time: 256, speed: 256, sat: 256, lean: 256, name: 4096 } as const;
/** Characters of the track's name kept. */
const NAME_CHARS = 64;
/**
 * Each stretch of this many characters must hold MIN_FIXES_PER_STRETCH fixes (a track point with
 * a position and a time, not zeros; a repeat counts, as a track written twice has them): a GPX
 * recording holds thousands (one every 150-600 characters, its extensions included), a file of
 * markup with no fixes none. Refused at the first stretch short of them, it costs a worker a
 * fraction of a second, not the ~12 s of reading 255 MiB of empty elements to the end (issue 58).
 */
export const FIX_STRETCH_CHARS = 1 << 20;
export const MIN_FIXES_PER_STRETCH = 64;

/** `<!DOCTYPE` or `<!ENTITY`: the file is refused at once. */
const DTD_RE = /^<!(DOCTYPE|ENTITY)/i;

/** Whether `text` declares a DTD anywhere. */
function declaresDtd(text: string): boolean {
  for (let at = text.indexOf('<!'); at >= 0; at = text.indexOf('<!', at + 2))
    if (DTD_RE.test(text.slice(at, at + 9))) return true;
  return false;
}

type Field = keyof typeof MAX_TEXT_CHARS;
type Kind = 'point' | Field | 'other';

const KINDS = new Map<string, Kind>([
  ['trkpt', 'point'],
  ['rtept', 'point'],
  ['time', 'time'],
  ['speed', 'speed'],
  ['sat', 'sat'],
  ['lean', 'lean'],
  ['leanangle', 'lean'],
  ['name', 'name'],
]);

/** What an element is, whatever its prefix or case. */
const kindOf = (tag: string): Kind => KINDS.get(tag.slice(tag.indexOf(':') + 1).toLowerCase()) ?? 'other';

/** A point being read: its position from its attributes, its fields from its elements (NaN: not in the file). */
interface Point {
  lat: number;
  lon: number;
  time: number;
  speed: number;
  sat: number;
  lean: number;
}

/** The text of the element being read, at most MAX_TEXT_CHARS of it; `cut` when there was more. */
interface FieldText {
  field: Field;
  depth: number;
  text: string;
  cut: boolean;
}

/** A tag name as a message shows it (a hostile one can be long). */
const shown = (tag: string) => (tag.length > 40 ? `${tag.slice(0, 40)}…` : tag);

class GpxReader implements FormatReader {
  readonly fixes = new TraceBuilder();
  private readonly xml = new SaxesParser({ xmlns: false, position: true } as const);
  /** Where the XML stopped being readable (1-based line); nothing after it is read. */
  private failedAtLine: number | undefined;
  private dtdTail = '';
  /** Where saxes last opened or closed a tag (characters from the start). */
  private lastTagAt = 0;
  /** Attributes of the tag being read. */
  private attributes = 0;
  /** The kind of each open element. */
  private readonly open: Kind[] = [];
  private points = 0;
  /** Fixes read: points the trace took as fixes (kept, or dropped as a repeat, out of order, past its limit). */
  private fixesRead = 0;
  /** Where the stretch being read ends (characters from the start), and the fixes read before it. */
  private stretch = { end: FIX_STRETCH_CHARS, fixesBefore: 0 };
  private point: Point | undefined;
  private reading: FieldText | undefined;
  private trackName: string | undefined;

  constructor() {
    this.xml.on('opentagstart', this.startTag);
    this.xml.on('attribute', this.attribute);
    this.xml.on('opentag', this.openTag);
    this.xml.on('closetag', this.closeTag);
    this.xml.on('cdata', this.text);
    this.xml.on('error', () => this.stop());
  }

  /**
   * The first error ends the reading: what came before it is kept, and nothing saxes still reports
   * of the piece it has is heard (its handlers are taken away).
   */
  private stop(): void {
    this.failedAtLine ??= this.xml.line;
    for (const event of ['opentagstart', 'attribute', 'opentag', 'closetag', 'cdata', 'text'] as const)
      this.xml.off(event);
  }

  write(chunk: string): void {
    this.refuseDtd(chunk); // even after the XML broke: a file with a DTD is refused whole
    for (let at = 0; at < chunk.length && this.failedAtLine === undefined; at += PIECE_CHARS) {
      this.xml.write(chunk.slice(at, at + PIECE_CHARS));
      if (this.failedAtLine === undefined && this.xml.position - this.lastTagAt > MAX_RUN_CHARS)
        throw this.refuse(
          `More than ${MAX_RUN_CHARS} characters without a tag (line ${this.xml.line}); nothing was stored.`,
          { id: 'imports.refused.gpxLongRun', values: { max: MAX_RUN_CHARS, line: this.xml.line } },
        );
      if (this.failedAtLine === undefined && this.xml.position >= this.stretch.end) this.checkStretch();
    }
  }

  /** A stretch of FIX_STRETCH_CHARS read: it must have held its fixes. */
  private checkStretch(): void {
    const fixes = this.fixesRead - this.stretch.fixesBefore;
    if (fixes < MIN_FIXES_PER_STRETCH) {
      const mb = Math.round(FIX_STRETCH_CHARS / 1024 / 1024);
      throw new AppError(
        'import/too-few-fixes',
        `${mb} MB of the GPX (up to line ${this.xml.line}) hold ${fixes} track points with a position and a time; a recording holds thousands. Nothing was stored.`,
        undefined,
        {
          id: 'imports.refused.gpxTooFewFixes',
          values: { mb, line: this.xml.line, fixes, min: MIN_FIXES_PER_STRETCH },
        },
      );
    }
    this.stretch = { end: this.xml.position + FIX_STRETCH_CHARS, fixesBefore: this.fixesRead };
  }

  end(): ImportedFile {
    if (this.failedAtLine === undefined) this.xml.close();
    if (this.failedAtLine !== undefined) this.fixes.truncatedAt = this.failedAtLine;
    if (this.points === 0 && this.failedAtLine === undefined)
      throw new AppError('import/no-fix', 'No <trkpt> in the file; nothing was stored.', undefined, {
        id: 'imports.refused.gpxNoPoints',
      });
    const trackName = this.trackName;
    return {
      format: 'gpx',
      trace: this.fixes.trace(),
      loggerLaps: [],
      ...(trackName ? { trackName } : {}),
      warnings: this.fixes.warnings(),
      lines: this.points,
    };
  }

  /** Refuses a DTD in any piece (checked across the pieces' seams). */
  private refuseDtd(chunk: string): void {
    if (declaresDtd(this.dtdTail + chunk.slice(0, 16)) || declaresDtd(chunk)) throw new AppError('import/xml-dtd');
    this.dtdTail = (this.dtdTail + chunk.slice(-16)).slice(-16);
  }

  private refuse(message: string, mensagem: MessageRef): AppError {
    return new AppError('import/xml-limit', message, undefined, mensagem);
  }

  private readonly startTag = (): void => {
    this.attributes = 0;
  };

  private readonly attribute = (a: SaxesAttributePlain): void => {
    if (++this.attributes > MAX_ATTRIBUTES)
      throw this.refuse(
        `A tag on line ${this.xml.line} has more than ${MAX_ATTRIBUTES} attributes; nothing was stored.`,
        { id: 'imports.refused.gpxAttributes', values: { line: this.xml.line, max: MAX_ATTRIBUTES } },
      );
    if (a.value.length > MAX_ATTRIBUTE_CHARS)
      throw this.refuse(
        `The attribute ${shown(a.name)} on line ${this.xml.line} is longer than ${MAX_ATTRIBUTE_CHARS} characters; nothing was stored.`,
        {
          id: 'imports.refused.gpxLongAttribute',
          values: { name: shown(a.name), line: this.xml.line, max: MAX_ATTRIBUTE_CHARS },
        },
      );
  };

  private readonly openTag = (tag: SaxesTagPlain): void => {
    this.lastTagAt = this.xml.position;
    if (this.open.length >= MAX_DEPTH) return this.stop();
    const kind = kindOf(tag.name);
    this.open.push(kind);
    if (kind === 'point') {
      const lat = num(tag.attributes.lat);
      const lon = num(tag.attributes.lon);
      this.points++;
      if (lat === undefined || lon === undefined) {
        this.fixes.counts.badLines++;
        this.point = undefined;
      } else this.point = { lat, lon, time: NaN, speed: NaN, sat: NaN, lean: NaN };
      return;
    }
    const wanted =
      (this.point !== undefined && (kind === 'time' || kind === 'speed' || kind === 'sat' || kind === 'lean')) ||
      (this.point === undefined && kind === 'name' && this.trackName === undefined && this.open.length <= 3);
    if (wanted) {
      this.reading = { field: kind, depth: this.open.length, text: '', cut: false };
      // saxes gathers a text only while someone listens: only the text of an element read is held.
      this.xml.on('text', this.text);
    }
  };

  private readonly text = (text: string): void => {
    const r = this.reading;
    if (r === undefined) return;
    const room = MAX_TEXT_CHARS[r.field] - r.text.length;
    if (text.length > room) r.cut = true;
    r.text += text.slice(0, Math.max(0, room));
  };

  private readonly closeTag = (): void => {
    this.lastTagAt = this.xml.position;
    const depth = this.open.length;
    const kind = this.open.pop();
    const r = this.reading;
    if (r !== undefined && r.depth === depth) {
      this.reading = undefined;
      this.xml.off('text');
      this.keep(r);
    } else if (kind === 'point' && this.point) {
      const p = this.point;
      if (!Number.isFinite(p.time)) this.fixes.counts.badLines++;
      else {
        const bad = this.fixes.counts.badLines;
        this.fixes.addFix(p.time, p.lat, p.lon, p.speed * 3.6, p.sat, p.lean);
        if (this.fixes.counts.badLines === bad) this.fixesRead++; // not zeros, nor a time out of range
      }
      this.point = undefined;
    }
  };

  /** What an element read says: the track's name, or a field of the point. */
  private keep({ field, text, cut }: FieldText): void {
    if (field === 'name') {
      this.trackName = text.trim().slice(0, NAME_CHARS) || undefined;
      return;
    }
    if (!this.point) return;
    // Cut short it is no time or number: the point is counted as bad, or the field left unknown.
    if (field === 'time') this.point.time = cut ? NaN : Date.parse(text.trim());
    else this.point[field] = cut ? NaN : (num(text) ?? NaN);
  }
}

export function createGpxReader(): FormatReader {
  return new GpxReader();
}
