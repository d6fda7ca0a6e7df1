/**
 * The plain GPX reader: saxes, a general streaming XML parser, driving the same point events as
 * the import's own reader (xml-scan.ts). The tests hold that one to this.
 */
import { SaxesParser } from 'saxes';
import { dtdGuard, GpxPoints } from '../gpx';
import type { FormatReader, ImportedFile } from '../trace';

export function createSaxesGpxReader(): FormatReader {
  const points = new GpxPoints();
  const parser = new SaxesParser({ position: true });
  const guard = dtdGuard();
  let failed: number | undefined;
  parser.on('opentag', (tag) => failed === undefined && points.open(tag.name, Object.entries(tag.attributes as Record<string, string>).flat()));
  parser.on('text', (t) => failed === undefined && points.text(t, 0, t.length));
  parser.on('cdata', (t) => failed === undefined && points.text(t, 0, t.length));
  parser.on('closetag', (tag) => failed === undefined && points.close(tag.name));
  // The first error ends the reading: what came before it is kept.
  parser.on('error', () => void (failed ??= parser.line));
  return {
    fixes: points.out,
    write(chunk: string) {
      guard(chunk);
      if (failed !== undefined) return;
      try {
        parser.write(chunk);
      } catch {
        failed ??= parser.line;
      }
    },
    end(): ImportedFile {
      if (failed === undefined) {
        try {
          parser.close();
        } catch {
          failed ??= parser.line;
        }
      }
      return points.result(failed);
    },
  };
}
