/**
 * Reading one imported file, whatever its format: the format told from its first bytes, the text
 * decoded as it arrives (a GPX in the encoding it declares), and handed to that format's reader
 * piece by piece, so a file of any size streams through.
 */
import { AppError } from '../errors';
import { importWarningText } from '../i18n/pt-BR-imports';
import { createAimReader } from './aim-csv';
import { detectFormat, SNIFF_BYTES, xmlEncoding } from './detect';
import { createGpxReader } from './gpx';
import { createNmeaReader } from './nmea';
import { createRaceChronoReader } from './racechrono-csv';
import { createGpsSixReader } from './six';
import { createSpeedAngleReader } from './speedangle';
import type { FormatReader, ImportedFile, ImportFormat } from './trace';
import { createVboReader } from './vbo';

function readerFor(format: Exclude<ImportFormat, 'lap.six'>, filename: string): FormatReader {
  switch (format) {
    case 'gpx':
      return createGpxReader();
    case 'racechrono':
      return createRaceChronoReader();
    case 'vbo':
      return createVboReader();
    case 'aim':
      return createAimReader();
    case 'nmea':
      return createNmeaReader();
    case 'speedangle':
      return createSpeedAngleReader();
    case 'gps.six':
      return createGpsSixReader(filename);
  }
}

function decoderFor(format: ImportFormat, head: string): TextDecoder {
  if (format !== 'gpx') return new TextDecoder('utf-8');
  try {
    return new TextDecoder(xmlEncoding(head));
  } catch {
    throw new AppError(
      'import/unsupported-format',
      `The GPX declares an encoding Voltas does not read (${xmlEncoding(head)}).`,
      undefined,
      `O GPX declara uma codificação que o Voltas não lê (${xmlEncoding(head)}); use UTF-8 ou windows-1252.`,
    );
  }
}

export function unsupported(): AppError {
  return new AppError('import/unsupported-format');
}

/** What a file holds: a trace (most formats), or a lap.six's text (which needs its gps.six). */
export type ReadImport = { kind: 'trace'; file: ImportedFile } | { kind: 'lap.six'; text: string };

/** Reads a whole file from its bytes (already inflated if it was a .gz). Throws AppError with the reason. */
export async function readImport(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, filename: string): Promise<ReadImport> {
  let head: Uint8Array[] = [];
  let headBytes = 0;
  let reader: FormatReader | undefined;
  let decoder: TextDecoder | undefined;
  let lapText: string[] | undefined;
  let format: ImportFormat | undefined;

  const start = () => {
    const joined = new Uint8Array(headBytes);
    let at = 0;
    for (const h of head) {
      joined.set(h, at);
      at += h.length;
    }
    const sniff = new TextDecoder('latin1').decode(joined.subarray(0, SNIFF_BYTES));
    format = detectFormat(sniff);
    if (!format) throw unsupported();
    decoder = decoderFor(format, sniff);
    if (format === 'lap.six') lapText = [];
    else reader = readerFor(format, filename);
    head = [];
    return joined;
  };
  const feed = (bytes: Uint8Array) => {
    const text = decoder!.decode(bytes, { stream: true });
    if (lapText) lapText.push(text);
    else reader!.write(text);
  };

  for await (const chunk of chunks) {
    if (!decoder) {
      head.push(chunk);
      headBytes += chunk.length;
      if (headBytes < SNIFF_BYTES) continue;
      feed(start());
      continue;
    }
    feed(chunk);
  }
  if (!decoder) {
    if (headBytes === 0) throw new AppError('import/no-fix', 'The file is empty; nothing was stored.', undefined, 'O arquivo está vazio; nada foi gravado.');
    feed(start());
  }
  const rest = decoder!.decode();
  if (lapText) return { kind: 'lap.six', text: lapText.join('') + rest };
  if (rest) reader!.write(rest);
  const file = reader!.end();
  if (file.trace.count === 0) {
    const why = file.warnings.map((w) => `${w.code}${w.count !== undefined ? ` ${w.count}` : ''}`).join(', ');
    const porque = file.warnings.map(importWarningText).join(' ');
    throw new AppError(
      'import/no-fix',
      `The file holds no usable GPS fix${why ? ` (${why})` : ''}; nothing was stored.`,
      undefined,
      `O arquivo (${format}) não tem nenhuma posição de GPS utilizável; nada foi gravado.${porque ? ` ${porque}` : ''}`,
    );
  }
  return { kind: 'trace', file };
}
