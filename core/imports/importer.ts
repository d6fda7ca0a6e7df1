/**
 * Reading one imported file, whatever its format: the format told from its first bytes, the text
 * decoded as it arrives (a GPX in the encoding it declares), and handed to that format's reader
 * piece by piece, so a file of any size streams through.
 */
import { AppError } from '../errors';
import { MAX_LAP_SIX_BYTES } from '../formats/lap-six';
import { importWarningRef } from '../i18n/import-warnings';
import { createAimReader } from './aim-csv';
import { detectFormat, SNIFF_BYTES, xmlEncoding } from './detect';
import { createGpxReader } from './gpx';
import { createNmeaReader } from './nmea';
import { createRaceChronoReader } from './racechrono-csv';
import { createGpsSixReader } from './six';
import { createSpeedAngleReader } from './speedangle';
import { createTrackAddictReader } from './trackaddict-csv';
import type { FormatReader, ImportedFile, ImportFormat } from './trace';
import { createVboReader } from './vbo';

/** Each format's reader; TrackAddict and gps.six read the day from the file's name. */
const READERS: Record<Exclude<ImportFormat, 'lap.six'>, (filename: string) => FormatReader> = {
  gpx: createGpxReader,
  racechrono: createRaceChronoReader,
  vbo: createVboReader,
  aim: createAimReader,
  nmea: createNmeaReader,
  speedangle: createSpeedAngleReader,
  trackaddict: createTrackAddictReader,
  'gps.six': createGpsSixReader,
};

function decoderFor(format: ImportFormat, head: string): InstanceType<typeof TextDecoder> {
  if (format !== 'gpx') return new TextDecoder('utf-8');
  try {
    return new TextDecoder(xmlEncoding(head));
  } catch {
    throw new AppError(
      'import/unsupported-format',
      `The GPX declares an encoding Voltas does not read (${xmlEncoding(head)}).`,
      undefined,
      { id: 'imports.refused.encoding', values: { encoding: xmlEncoding(head) } },
    );
  }
}

export function unsupported(): AppError {
  return new AppError('import/unsupported-format');
}

/** What a file holds: a trace (most formats), or a lap.six's text (which needs its gps.six). */
export type ReadImport = { kind: 'trace'; file: ImportedFile } | { kind: 'lap.six'; text: string };

/** Bytes read before the file's fixes per byte are taken as the whole file's (to size the fix columns once). */
const SIZE_GUESS_AFTER = 1 << 20;

/**
 * One file read piece by piece: `push` each chunk of bytes as it arrives (already inflated if it
 * was a .gz), then `finish`. Throws AppError with the reason (at once for a DTD or an unknown
 * format, at the end for a file with no fix). With `expectedBytes` (the body's length), the fix
 * columns are sized once from the first megabyte's fixes per byte, instead of growing by half
 * again and again (each growth left the outgrown columns behind as garbage).
 */
export class ImportReader {
  private head: Uint8Array[] = [];
  private headBytes = 0;
  private reader: FormatReader | undefined;
  private decoder: ReturnType<typeof decoderFor> | undefined;
  private lapText: string[] | undefined;
  private format: ImportFormat | undefined;
  private fed = 0;
  private sized = false;
  private lapBytes = 0;

  constructor(
    private readonly filename: string,
    private readonly expectedBytes?: number,
  ) {}

  push(chunk: Uint8Array): void {
    if (this.decoder) return this.feed(chunk);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes >= SNIFF_BYTES) this.feed(this.start());
  }

  finish(): ReadImport {
    if (!this.decoder) {
      if (this.headBytes === 0)
        throw new AppError('import/no-fix', 'The file is empty; nothing was stored.', undefined, {
          id: 'imports.refused.empty',
        });
      this.feed(this.start());
    }
    const rest = this.decoder!.decode();
    if (this.lapText) return { kind: 'lap.six', text: this.lapText.join('') + rest };
    if (rest) this.reader!.write(rest);
    const file = this.reader!.end();
    if (file.trace.count === 0) {
      const why = file.warnings.map((w) => `${w.code}${w.count !== undefined ? ` ${w.count}` : ''}`).join(', ');
      throw new AppError(
        'import/no-fix',
        `The file holds no usable GPS fix${why ? ` (${why})` : ''}; nothing was stored.`,
        undefined,
        [
          { id: 'imports.refused.noFix', values: { format: this.format ?? '' } },
          ...file.warnings.map(importWarningRef),
        ],
      );
    }
    return { kind: 'trace', file };
  }

  /** The format, from the first bytes; the reader for it. */
  private start(): Uint8Array {
    const joined = new Uint8Array(this.headBytes);
    let at = 0;
    for (const h of this.head) {
      joined.set(h, at);
      at += h.length;
    }
    this.head = [];
    const sniff = new TextDecoder('latin1').decode(joined.subarray(0, SNIFF_BYTES));
    this.format = detectFormat(sniff);
    if (!this.format) throw unsupported();
    this.decoder = decoderFor(this.format, sniff);
    if (this.format === 'lap.six') this.lapText = [];
    else this.reader = READERS[this.format](this.filename);
    return joined;
  }

  private feed(bytes: Uint8Array): void {
    const text = this.decoder!.decode(bytes, { stream: true });
    if (this.lapText) {
      // A lap.six is kept as text until its gps.six is found: only as much as a lap.six can be.
      this.lapBytes += bytes.length;
      if (this.lapBytes > MAX_LAP_SIX_BYTES)
        throw new AppError(
          'import/too-large',
          `A lap.six is limited to ${MAX_LAP_SIX_BYTES} bytes; nothing was stored.`,
          undefined,
          { id: 'imports.refused.lapSixTooLarge', values: { mb: MAX_LAP_SIX_BYTES / 1024 / 1024 } },
        );
      return void this.lapText.push(text);
    }
    this.reader!.write(text);
    this.fed += bytes.length;
    if (!this.sized && this.expectedBytes && this.fed >= SIZE_GUESS_AFTER) {
      this.sized = true;
      const fixes = this.reader!.fixes;
      if (fixes.count > 0) fixes.reserve(Math.ceil(((fixes.count * this.expectedBytes) / this.fed) * 1.02) + 1024);
    }
  }
}
