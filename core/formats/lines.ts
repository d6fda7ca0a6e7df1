/**
 * Text cut into lines, the one splitter of the text formats (an import's file as it arrives, a
 * whole lap.six): LF or CRLF, each line numbered from 1 as sent. gps.six's parser reads its lines
 * where they lie instead (core/formats/gps-six.ts: a cursor, no line copied), for speed.
 */

/**
 * Splits text arriving in pieces into lines (LF or CRLF), one call per line with its 1-based
 * number. A line longer than `maxLine` is refused whole (counted as bad) without being kept.
 */
export class LineSplitter {
  private rest = '';
  private n = 0;
  private skipping = false;
  constructor(
    private onLine: (line: string, n: number) => void,
    private onTooLong: (n: number) => void,
    private maxLine = 4096,
  ) {}
  write(text: string): void {
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      const piece = this.rest + text.slice(start, nl);
      this.rest = '';
      start = nl + 1;
      this.n++;
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      this.onLine(piece.endsWith('\r') ? piece.slice(0, -1) : piece, this.n);
    }
    if (this.skipping) return;
    this.rest += text.slice(start);
    if (this.rest.length > this.maxLine) {
      this.rest = '';
      this.skipping = true;
      this.onTooLong(this.n + 1);
    }
  }
  /** The last line, which had no line break after it: returned for the reader to judge (it may be cut short). */
  end(): { line: string; n: number } | undefined {
    if (this.skipping || this.rest === '') return undefined;
    const line = this.rest.endsWith('\r') ? this.rest.slice(0, -1) : this.rest;
    this.rest = '';
    return { line, n: ++this.n };
  }
  get lines(): number {
    return this.n;
  }
}

/** Every non-blank line of a whole text with its number, as LineSplitter cuts it (no length limit). */
export function lines(text: string): [number, string][] {
  const out: [number, string][] = [];
  const keep = (line: string, n: number) => {
    if (line.trim() !== '') out.push([n, line]);
  };
  const split = new LineSplitter(keep, () => undefined, Infinity);
  split.write(text);
  const last = split.end();
  if (last) keep(last.line, last.n);
  return out;
}
