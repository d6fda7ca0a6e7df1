/**
 * What the device's two text formats (`lap.six`, `gps.six`; DESIGN.md, File formats) share:
 * heats, line problems and the whole-body checks (lines are cut by lines.ts). Pure: no Node,
 * no DOM. Parsers never throw on input: every bad line becomes a problem with its line number,
 * field and reason, and every good line is kept. Empty lines are dropped; CRLF is accepted.
 */

export const HEATS = ['A', 'B', 'C', 'D'] as const;
export type Heat = (typeof HEATS)[number];

export type ProblemReason =
  | 'fieldCount'
  | 'lapTime'
  | 'heat'
  | 'number'
  | 'integer'
  | 'flag'
  | 'sector'
  | 'latitude'
  | 'longitude'
  | 'time'
  | 'lineTooLong'
  | 'tooManyProblems';

export interface LineProblem {
  /** 1-based line number in the file as sent. */
  line: number;
  field: string;
  reason: ProblemReason;
}

/** A file with more problems than this reports the first ones and one 'tooManyProblems'. */
export const MAX_REPORTED_PROBLEMS = 200;
/** No real line comes near this; longer ones are refused without being split. */
export const MAX_LINE_LENGTH = 1024;

export interface ParseResult<T> {
  value: T;
  problems: LineProblem[];
  /** Non-empty lines seen. */
  lines: number;
}

export class Problems {
  readonly list: LineProblem[] = [];
  private capped = false;
  add(line: number, field: string, reason: ProblemReason): void {
    if (this.list.length < MAX_REPORTED_PROBLEMS) this.list.push({ line, field, reason });
    else if (!this.capped) {
      this.capped = true;
      this.list.push({ line, field: '*', reason: 'tooManyProblems' });
    }
  }
}

export type BodyRejection = 'binary' | 'invalidUtf8' | 'noValidLine' | 'empty';

/** Decodes an upload; refuses what is not a six text file at all (NUL bytes, invalid UTF-8, UTF-16). */
export function decodeSixBody(bytes: Uint8Array): { text: string } | { rejection: BodyRejection } {
  if (bytes.length === 0) return { rejection: 'empty' };
  if (bytes.includes(0)) return { rejection: 'binary' };
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return { text };
  } catch {
    return { rejection: 'invalidUtf8' };
  }
}
