/**
 * GPX 1.0 and 1.1: track points with their time; speed from GPX 1.0's `<speed>` (m/s) or a
 * Garmin TrackPointExtension `speed` under any prefix (m/s), else computed later from positions;
 * satellites from `<sat>`. Read as a stream (saxes); a DTD is refused before it is parsed, so no
 * entity is ever declared, let alone expanded or fetched.
 */
import { SaxesParser } from 'saxes';
import { AppError } from '../errors';
import { num, TraceBuilder, type FormatReader, type ImportedFile } from './trace';

/** `<!DOCTYPE` or `<!ENTITY` anywhere: the file is refused at once. */
const DTD_RE = /<!(DOCTYPE|ENTITY)/i;

const localName = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();

export function createGpxReader(): FormatReader {
  const out = new TraceBuilder();
  const parser = new SaxesParser({ position: true });
  let point: { lat: number; lon: number; time?: number; speed?: number; sats?: number; lean?: number } | undefined;
  let field: 'time' | 'speed' | 'sat' | 'lean' | undefined;
  let text = '';
  let trackName: string | undefined;
  let inName = false;
  let depth = 0;
  let points = 0;
  let failed: { line: number } | undefined;
  let tail = '';

  parser.on('opentag', (tag) => {
    if (failed) return;
    depth++;
    const name = localName(tag.name);
    if (name === 'trkpt' || name === 'rtept') {
      const lat = num(String(tag.attributes.lat ?? ''));
      const lon = num(String(tag.attributes.lon ?? ''));
      points++;
      if (lat === undefined || lon === undefined) {
        out.counts.badLines++;
        point = undefined;
      } else point = { lat, lon };
      return;
    }
    if (point && (name === 'time' || name === 'speed' || name === 'sat')) {
      field = name;
      text = '';
    } else if (point && (name === 'lean' || name === 'leanangle')) {
      field = 'lean';
      text = '';
    } else if (!point && name === 'name' && trackName === undefined && depth <= 3) {
      inName = true;
      text = '';
    }
  });
  parser.on('text', (t) => {
    if (field || inName) text += t;
  });
  parser.on('closetag', (tag) => {
    if (failed) return;
    depth--;
    const name = localName(tag.name);
    if (inName && name === 'name') {
      inName = false;
      trackName = text.trim().slice(0, 64) || undefined;
      return;
    }
    if (point && field) {
      if (field === 'time') {
        const t = Date.parse(text.trim());
        if (Number.isFinite(t)) point.time = t;
      } else if (field === 'speed') point.speed = num(text);
      else if (field === 'sat') point.sats = num(text);
      else point.lean = num(text);
      field = undefined;
      return;
    }
    if (point && (name === 'trkpt' || name === 'rtept')) {
      if (point.time === undefined) out.counts.badLines++;
      else
        out.add({
          timeMs: point.time,
          lat: point.lat,
          lon: point.lon,
          speedKmh: point.speed === undefined ? undefined : point.speed * 3.6,
          satellites: point.sats,
          leanDeg: point.lean,
        });
      point = undefined;
    }
  });
  parser.on('error', (e) => {
    // The first error ends the reading: what came before it is kept.
    failed ??= { line: parser.line };
    void e;
  });

  return {
    write(chunk: string) {
      if (failed) return;
      if (DTD_RE.test(tail + chunk)) throw new AppError('import/xml-dtd');
      tail = chunk.slice(-16);
      try {
        parser.write(chunk);
      } catch {
        failed ??= { line: parser.line };
      }
    },
    end(): ImportedFile {
      if (!failed) {
        try {
          parser.close();
        } catch {
          failed ??= { line: parser.line };
        }
      }
      if (failed) out.truncatedAt = failed.line;
      if (points === 0 && !failed)
        throw new AppError(
          'import/no-fix',
          'No <trkpt> in the file; nothing was stored.',
          undefined,
          'O arquivo GPX não tem nenhum ponto de trajeto (<trkpt>); nada foi gravado.',
        );
      return { format: 'gpx', trace: out.trace(), loggerLaps: [], ...(trackName ? { trackName } : {}), warnings: out.warnings(), lines: points };
    },
  };
}
