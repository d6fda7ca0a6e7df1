/** `gps.six` parsed as it arrives, in bounded memory (uploads stream through the server). */
import { parseGpsLinesInto } from './gps-six';
import { allocGpsColumns, trimGpsColumns, type GpsColumns } from './gps-columns';
import { MAX_LINE_LENGTH, Problems, type BodyRejection, type LineProblem } from './six-lines';

const utf8 = new TextDecoder('utf-8');

export interface GpsStreamSummary {
  /** Non-empty lines seen. */
  lines: number;
  /** Samples kept. */
  indexed: number;
  problems: LineProblem[];
  /** Set when the body is not a six text file at all (parsing stopped there). */
  rejection: BodyRejection | undefined;
}

/**
 * gps.six parsed as it arrives, in bounded memory: bytes are pushed in any chunks; whole lines
 * are parsed (same rules and line numbers as parseGpsSix) and their columns handed to `onColumns`
 * a batch at a time; a partial line waits for the next chunk, and a line that grows past
 * MAX_LINE_LENGTH is dropped as it streams (reported 'lineTooLong', never buffered). The
 * whole-body checks run on the way: NUL bytes (binary, UTF-16) and invalid UTF-8 stop parsing.
 */
export class GpsSixStream {
  private readonly problems = new Problems();
  private carry: Uint8Array = new Uint8Array(0);
  private skippingLongLine = false;
  private lineNo = 0;
  private lines = 0;
  private indexed = 0;
  private bytes = 0;
  private rejection: BodyRejection | undefined;

  /**
   * Reused for every batch: `onColumns` must copy what it keeps before returning. Empty until the
   * first lines arrive (parsing grows it to their count), so a body refused early allocates nothing.
   */
  private work = allocGpsColumns(0);

  /**
   * `isUtf8` checks whole chunks (Node's native check on the server); by default a streaming
   * TextDecoder, which also runs in a browser.
   */
  constructor(
    private readonly onColumns: (c: GpsColumns) => void = () => {},
    isUtf8?: (b: Uint8Array) => boolean,
  ) {
    this.utf8 = isUtf8 ? new Utf8Chunks(isUtf8) : undefined;
  }

  private readonly utf8: Utf8Chunks | undefined;

  // Validates UTF-8 across chunk boundaries, every byte (also those of dropped long lines).
  private readonly utf8Check = new TextDecoder('utf-8', { fatal: true });

  push(chunk: Uint8Array): void {
    if (this.rejection || chunk.length === 0) return;
    this.bytes += chunk.length;
    if (chunk.includes(0)) {
      this.rejection = 'binary';
      return;
    }
    if (!this.validUtf8(chunk)) {
      this.rejection = 'invalidUtf8';
      return;
    }
    let data = chunk;
    const cut = data.lastIndexOf(10);
    if (cut === -1) {
      // No line ends here: keep at most one line's worth.
      this.hold(data);
      return;
    }
    let whole: Uint8Array;
    if (this.skippingLongLine) {
      this.skippingLongLine = false;
      this.lineNo++;
      this.lines++;
      this.problems.add(this.lineNo, '*', 'lineTooLong');
      const first = data.indexOf(10);
      whole = data.subarray(first + 1, cut);
      if (first === cut) whole = new Uint8Array(0);
      data = data.subarray(cut + 1);
      if (first !== cut) this.parse(whole);
      this.carry = new Uint8Array(0);
      this.hold(data);
      return;
    }
    if (this.carry.length) {
      // The line begun in an earlier chunk is joined alone (at most a line's bytes copied), and
      // the rest of the chunk parsed where it lies.
      const first = data.indexOf(10);
      const joined = concat(this.carry, data.subarray(0, first));
      this.carry = new Uint8Array(0);
      this.parse(joined, first === cut ? undefined : data.subarray(first + 1, cut));
    } else {
      this.parse(data.subarray(0, cut));
    }
    this.hold(data.subarray(cut + 1));
  }

  /** Parses what is left and returns the summary. */
  end(): GpsStreamSummary {
    if (!this.rejection && !this.utf8EndsClean()) this.rejection = 'invalidUtf8'; // a character cut off at the end
    if (!this.rejection) {
      if (this.skippingLongLine) {
        this.lineNo++;
        this.lines++;
        this.problems.add(this.lineNo, '*', 'lineTooLong');
      } else if (this.carry.length) {
        this.parse(this.carry);
      }
      this.carry = new Uint8Array(0);
      if (this.bytes === 0) this.rejection = 'empty';
    }
    return { lines: this.lines, indexed: this.indexed, problems: this.problems.list, rejection: this.rejection };
  }

  private validUtf8(chunk: Uint8Array): boolean {
    if (this.utf8) return this.utf8.push(chunk);
    try {
      this.utf8Check.decode(chunk, { stream: true });
      return true;
    } catch {
      return false;
    }
  }

  private utf8EndsClean(): boolean {
    if (this.utf8) return this.utf8.end();
    try {
      this.utf8Check.decode();
      return true;
    } catch {
      return false;
    }
  }

  private hold(rest: Uint8Array): void {
    if (this.skippingLongLine) return;
    if (this.carry.length + rest.length > MAX_LINE_LENGTH + 1) {
      // CR of a CRLF line still fits: +1. Anything longer is not a line we would keep.
      this.skippingLongLine = true;
      this.carry = new Uint8Array(0);
      return;
    }
    this.carry = this.carry.length ? concat(this.carry, rest) : rest.slice();
  }

  /**
   * Parses whole lines (the newline after the last one already cut off), in `b` and then in
   * `more` (the lines after b's, when given), and hands their columns over in one batch.
   */
  private parse(b: Uint8Array, more?: Uint8Array): void {
    this.work.count = 0;
    for (const part of more ? [b, more] : [b]) {
      const r = parseGpsLinesInto(utf8.decode(part), this.lineNo, this.problems, this.work);
      this.work = r.columns;
      this.lineNo += r.lineCount;
      this.lines += r.lines;
    }
    const c = this.work;
    this.indexed += c.count;
    if (c.count) this.onColumns(trimGpsColumns(c));
  }
}

/**
 * UTF-8 validity of a byte stream with a whole-buffer checker: a character cut at a chunk's end
 * (at most 3 bytes) is held and checked with the start of the next chunk.
 */
class Utf8Chunks {
  private tail: Uint8Array = new Uint8Array(0);
  constructor(private readonly isUtf8: (b: Uint8Array) => boolean) {}

  push(chunk: Uint8Array): boolean {
    let start = 0;
    if (this.tail.length) {
      const lead = this.tail[0]!;
      const need = utf8Length(lead) - this.tail.length;
      if (chunk.length < need) {
        this.tail = concat(this.tail, chunk);
        return chunk.every((x) => (x & 0xc0) === 0x80);
      }
      if (!this.isUtf8(concat(this.tail, chunk.subarray(0, need)))) return false;
      this.tail = new Uint8Array(0);
      start = need;
    }
    let end = chunk.length;
    let i = end - 1;
    while (i >= start && end - i <= 3 && (chunk[i]! & 0xc0) === 0x80) i--;
    if (i >= start && utf8Length(chunk[i]!) > end - i) {
      this.tail = chunk.slice(i);
      end = i;
    }
    return this.isUtf8(chunk.subarray(start, end));
  }

  end(): boolean {
    return this.tail.length === 0;
  }
}

/** Bytes in the UTF-8 sequence this lead byte starts (1 for what is not a lead: the checker refuses it). */
function utf8Length(lead: number): number {
  if (lead >= 0xf0 && lead <= 0xf7) return 4;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xc0 && lead <= 0xdf) return 2;
  return 1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
