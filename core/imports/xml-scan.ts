/**
 * An XML reader for GPX files that jumps from one `<` to the next (indexOf) instead of reading
 * character by character: with saxes a 50 MB GPX's import took five times saxes' own reading
 * (bench/README.md, "import"). It reads what GPX files hold (elements, attributes in either quote,
 * text, the five named and numeric character references, comments, CDATA, processing
 * instructions) and stops at the first thing that is not well-formed XML; a DTD is refused. The
 * plain reader — saxes, driving the same events — is the tests' oracle
 * (test-support/gpx-saxes.ts).
 */
import { AppError } from '../errors';

/** What the reader reports, in document order. */
export interface XmlEvents {
  /** `attributes`: name, value, name, value… (no object: its keys would be made unique strings). */
  open(name: string, attributes: readonly string[]): void;
  /** Text inside an element: `source` from `from` to `to` (read in place: no string is made for it). Called only while `wantsText()` says so. */
  text(source: string, from: number, to: number): void;
  close(name: string): void;
  wantsText(): boolean;
}

const GT = 62;
const SLASH = 47;
const QUESTION = 63;
const BANG = 33;
const EQUALS = 61;
const QUOTE = 34;
const APOS = 39;
const AMP = 38;

const isBlank = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;
/** The ASCII characters that end a name or cannot be in one. */
const NAME_END = new Uint8Array(128);
for (const ch of ' \n\r\t>/=<"\'&') NAME_END[ch.charCodeAt(0)] = 1;
const endsName = (c: number) => c < 128 && NAME_END[c] === 1;
const startsName = (c: number) => !endsName(c) && !(c >= 48 && c <= 57) && c !== 45 && c !== 46; // not a digit, '-' or '.'

/**
 * Deepest nesting read (a GPX nests six deep): a file of nothing but opening tags would otherwise
 * hold one name per tag, gigabytes for a file at the size limit.
 */
const MAX_DEPTH = 64;

/** Longest tag (or cut character reference) waited for across pieces: each wait reads it again. */
const MAX_UNFINISHED = 65_536;

const NO_ATTRIBUTES: readonly string[] = Object.freeze([]);

/** Slots for the names seen (a GPX uses a dozen): a name met again is handed on as the string kept for it, whose hash the kind lookup has already worked out. */
const NAME_SLOTS = 256;

/** An attribute's value from the open event's list. */
export function attributeOf(attributes: readonly string[], name: string): string | undefined {
  for (let k = 0; k < attributes.length; k += 2) if (attributes[k] === name) return attributes[k + 1];
  return undefined;
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Text with its character references replaced; undefined for an unknown or broken one. */
function unescape(s: string): string | undefined {
  if (s.indexOf('&') < 0) return s;
  let out = '';
  let from = 0;
  for (let amp = s.indexOf('&'); amp >= 0; amp = s.indexOf('&', from)) {
    const semi = s.indexOf(';', amp);
    if (semi < 0 || semi - amp > 12) return undefined;
    const ref = s.slice(amp + 1, semi);
    let ch = NAMED[ref];
    if (ch === undefined && ref[0] === '#') {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      const valid = /^#(x[0-9a-fA-F]+|[0-9]+)$/.test(ref) && code > 0 && code <= 0x10ffff;
      ch = valid ? String.fromCodePoint(code) : undefined;
    }
    if (ch === undefined) return undefined;
    out += s.slice(from, amp) + ch;
    from = semi + 1;
  }
  return out + s.slice(from);
}

/** Thrown inside the reader at the first thing that is not well-formed. */
class NotWellFormed extends Error {}

/**
 * Reads XML given in pieces. `write` each piece as it arrives, then `end`. After the first
 * error nothing more is read; `failedAtLine` says where (1-based).
 */
export class XmlScanner {
  failedAtLine: number | undefined;
  private buf = '';
  /** Line breaks in the text already read and let go. */
  private lineBreaks = 0;
  private stack: string[] = [];
  private rootSeen = false;
  /** Names seen, by a hash of their characters. */
  private readonly names: (string | undefined)[] = new Array(NAME_SLOTS).fill(undefined);
  /** Whether the text being scanned has a `&` at all (most GPX files have none). */
  private ampersands = true;
  /** The hash of the name `nameEnd` last went over. */
  private nameHash = 0;

  constructor(private readonly events: XmlEvents) {}

  write(chunk: string): void {
    if (this.failedAtLine !== undefined) return;
    const text = this.buf ? this.buf + chunk : chunk;
    let pos = 0;
    try {
      pos = this.scan(text, false);
    } catch (e) {
      if (!(e instanceof NotWellFormed)) throw e;
      this.failedAtLine = this.lineAt(text, this.errorAt);
      return;
    }
    this.lineBreaks += countLineBreaks(text, 0, pos);
    this.buf = text.slice(pos);
  }

  end(): void {
    if (this.failedAtLine !== undefined) return;
    const text = this.buf;
    try {
      const pos = this.scan(text, true);
      if (pos < text.length || this.stack.length > 0 || !this.rootSeen) throw this.fail(text.length);
    } catch (e) {
      if (!(e instanceof NotWellFormed)) throw e;
      this.failedAtLine = this.lineAt(text, this.errorAt);
    }
    this.buf = '';
  }

  private errorAt = 0;

  private fail(at: number): NotWellFormed {
    this.errorAt = at;
    return new NotWellFormed();
  }

  private lineAt(text: string, at: number): number {
    return this.lineBreaks + countLineBreaks(text, 0, Math.min(at, text.length)) + 1;
  }

  /** Reads the whole tags and text in `text`; returns where the unread rest (an unfinished tag) begins. */
  private scan(text: string, last: boolean): number {
    this.ampersands = text.indexOf('&') >= 0;
    let pos = 0;
    const end = text.length;
    while (pos < end) {
      const lt = text.indexOf('<', pos);
      if (lt < 0) {
        // The text may go on in the next piece: all of it is read now but a character reference cut in two.
        const amp = text.lastIndexOf('&');
        const cut = !last && amp >= pos && text.indexOf(';', amp) < 0 ? amp : end;
        if (cut > pos) this.textBetween(text, pos, cut);
        if (end - cut > MAX_UNFINISHED) throw this.fail(cut);
        return cut;
      }
      if (lt > pos) this.textBetween(text, pos, lt);
      const next = this.tag(text, lt);
      if (next < 0) {
        // The tag continues in the next piece (a tag this long is no GPX's).
        if (last || end - lt > MAX_UNFINISHED) throw this.fail(lt);
        return lt;
      }
      pos = next;
    }
    return pos;
  }

  private textBetween(text: string, from: number, to: number): void {
    if (this.stack.length === 0) {
      for (let i = from; i < to; i++) {
        const c = text.charCodeAt(i);
        if (!isBlank(c) && c !== 0xfeff) throw this.fail(i); // text outside the root element
      }
      return;
    }
    let plain = true;
    if (this.ampersands) for (let i = from; i < to && plain; i++) plain = text.charCodeAt(i) !== AMP;
    if (!this.events.wantsText() && plain) return;
    if (plain) return this.events.text(text, from, to);
    const t = unescape(text.slice(from, to));
    if (t === undefined) throw this.fail(from);
    if (this.events.wantsText()) this.events.text(t, 0, t.length);
  }

  /** Reads the tag at `lt`; returns the position after it, or -1 when the piece ends inside it. */
  private tag(text: string, lt: number): number {
    const c = text.charCodeAt(lt + 1);
    if (Number.isNaN(c)) return -1;
    if (c === QUESTION) {
      const close = text.indexOf('?>', lt + 2);
      return close < 0 ? -1 : close + 2;
    }
    if (c === BANG) return this.bang(text, lt);
    if (c === SLASH) {
      const gt = text.indexOf('>', lt + 2);
      if (gt < 0) return -1;
      const name = this.stack[this.stack.length - 1];
      // The name must be the open element's, whole (a slice and ===: a third faster here than startsWith or a char loop).
      if (name === undefined || text.slice(lt + 2, lt + 2 + name.length) !== name) throw this.fail(lt);
      for (let i = lt + 2 + name.length; i < gt; i++) if (!isBlank(text.charCodeAt(i))) throw this.fail(i);
      this.stack.pop();
      this.events.close(name);
      return gt + 1;
    }
    return this.openTag(text, lt);
  }

  private bang(text: string, lt: number): number {
    if (text.startsWith('<!--', lt)) {
      const close = text.indexOf('-->', lt + 4);
      return close < 0 ? -1 : close + 3;
    }
    if (text.startsWith('<![CDATA[', lt)) {
      const close = text.indexOf(']]>', lt + 9);
      if (close < 0) return -1;
      if (this.stack.length === 0) throw this.fail(lt);
      if (this.events.wantsText()) this.events.text(text, lt + 9, close);
      return close + 3;
    }
    if (text.length - lt < 9) return -1; // too little to tell yet
    if (/^<!(DOCTYPE|ENTITY)/i.test(text.slice(lt, lt + 9))) throw new AppError('import/xml-dtd');
    throw this.fail(lt);
  }

  /** Where the name starting at `from` ends; its hash into `nameHash`. */
  private nameEnd(text: string, from: number): number {
    const end = text.length;
    let h = 0;
    let i = from;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (endsName(c)) break;
      h = (h * 31 + c) | 0;
    }
    this.nameHash = h;
    return i;
  }

  /** The name from..to (hashed by `nameEnd`): the string kept for it, if it was met before (the slice compared is short-lived). */
  private known(text: string, from: number, to: number): string {
    const slot = this.nameHash & (NAME_SLOTS - 1);
    const seen = this.names[slot];
    if (seen !== undefined && seen.length === to - from && text.slice(from, to) === seen) return seen;
    return (this.names[slot] = text.slice(from, to));
  }

  private openTag(text: string, lt: number): number {
    const end = text.length;
    let i = lt + 1;
    if (!startsName(text.charCodeAt(i))) throw this.fail(i);
    i = this.nameEnd(text, i);
    if (i >= end) return -1;
    const name = this.known(text, lt + 1, i);
    let attributes: string[] | undefined;
    for (;;) {
      const before = i;
      while (i < end && isBlank(text.charCodeAt(i))) i++;
      if (i >= end) return -1;
      const c = text.charCodeAt(i);
      if (c === GT || c === SLASH) {
        const selfClosing = c === SLASH;
        if (selfClosing) {
          if (i + 1 >= end) return -1;
          if (text.charCodeAt(i + 1) !== GT) throw this.fail(i);
        }
        if (this.stack.length === 0 && this.rootSeen) throw this.fail(lt); // a second root element
        if (this.stack.length >= MAX_DEPTH) throw this.fail(lt);
        this.rootSeen = true;
        this.stack.push(name);
        this.events.open(name, attributes ?? NO_ATTRIBUTES);
        if (selfClosing) {
          this.stack.pop();
          this.events.close(name);
          return i + 2;
        }
        return i + 1;
      }
      // An attribute: blank before it, a name, '=', a quoted value.
      if (i === before || !startsName(c)) throw this.fail(i);
      const nameStart = i;
      i = this.nameEnd(text, i);
      const attr = this.known(text, nameStart, i);
      while (i < end && isBlank(text.charCodeAt(i))) i++;
      if (i >= end) return -1;
      if (text.charCodeAt(i) !== EQUALS) throw this.fail(i);
      i++;
      while (i < end && isBlank(text.charCodeAt(i))) i++;
      if (i >= end) return -1;
      const quote = text.charCodeAt(i);
      if (quote !== QUOTE && quote !== APOS) throw this.fail(i);
      const close = text.indexOf(quote === QUOTE ? '"' : "'", i + 1);
      if (close < 0) return -1;
      const raw = text.slice(i + 1, close);
      if (raw.indexOf('<') >= 0) throw this.fail(i);
      const value = unescape(raw);
      attributes ??= [];
      if (value === undefined || attributeOf(attributes, attr) !== undefined) throw this.fail(i);
      attributes.push(attr, value);
      i = close + 1;
    }
  }
}

function countLineBreaks(text: string, from: number, to: number): number {
  let n = 0;
  for (let at = text.indexOf('\n', from); at >= 0 && at < to; at = text.indexOf('\n', at + 1)) n++;
  return n;
}
