/**
 * Which format a file is in, from its first bytes, whatever its name: every format announces
 * itself in its first lines.
 */
import type { ImportFormat } from './trace';

/** Bytes looked at to tell the format (and a GPX's encoding). */
export const SNIFF_BYTES = 4096;

export function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

export function detectFormat(head: string): ImportFormat | undefined {
  const text = head.replace(/^(\uFEFF|\u00EF\u00BB\u00BF)/, ''); // a byte order mark, read as UTF-8 or as bytes
  const start = text.trimStart();
  if (/<(\w+:)?gpx[\s>]/.test(text) || /<!(DOCTYPE|ENTITY)/i.test(text)) return 'gpx'; // a DTD is refused by the GPX reader, with its reason
  if (/^Format,3\s*$/m.test(text)) return 'racechrono';
  if (/^"Format","AiM CSV File"/m.test(text)) return 'aim';
  // TrackAddict's comment line, or (a file cut before it, another version) its header row.
  if (/^# RaceRender Data: TrackAddict/m.test(text) || /^"?Time"?,("?UTC Time"?,)?"?Lap"?,.*GPS_Update/m.test(text))
    return 'trackaddict';
  if (/^File created on/i.test(start) || /^\[header\]\s*$/m.test(text)) return 'vbo';
  if (/^\$G[PNLAB](RMC|GGA|GSA|GSV|VTG)/m.test(text)) return 'nmea';
  if (/^#D=\d{2}-\d{2}-\d{4}/m.test(text) || /^; APEX Trace/m.test(start) || /^<trace #pt=/m.test(text))
    return 'speedangle';
  const first = start.split(/\r?\n/, 1)[0] ?? '';
  if (/^-?\d{1,3}\.\d+,\s*-?\d{1,3}\.\d+\|/.test(first)) return 'gps.six';
  if (/^\d{1,7}\|[A-Da-d]\|/.test(first)) return 'lap.six';
  return undefined;
}

/** The encoding a GPX declares (`<?xml … encoding="windows-1252"?>`), UTF-8 when it names none. */
export function xmlEncoding(head: string): string {
  const m = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head.replace(/^\uFEFF/, ''));
  return m ? m[1]!.toLowerCase() : 'utf-8';
}
