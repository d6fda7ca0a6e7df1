/**
 * A device's full-day upload (row `upload_vs_raw`): a 10 MB gps.six PUT to the device API until
 * its answer, against a bare PUT that writes the same body to a file and fsyncs it (the hello
 * server's /raw), alternated. Also the line parse of the same bytes alone in this process (as the
 * server runs it, 64 KB at a time): the share of the upload that is parsing.
 */
import { isUtf8 } from 'node:buffer';
import { GpsSixStream } from '#core/formats/gps-six-stream.ts';
import { putTimed } from './servers';
import { fmt, median, result, rows, verdict } from './table';

function parseAlone(body: Buffer): number {
  const t = performance.now();
  const stream = new GpsSixStream(() => {}, isUtf8);
  for (let o = 0; o < body.length; o += 65_536) stream.push(body.subarray(o, o + 65_536));
  stream.end();
  return performance.now() - t;
}

export async function benchUpload(base: string, helloPort: number, token: string, body: Buffer, runs: number) {
  const raw: number[] = [];
  const ours: number[] = [];
  const parse: number[] = [];
  parseAlone(body); // compiled as in a running server
  for (let i = 0; i < runs; i++) {
    raw.push(await putTimed(`http://127.0.0.1:${helloPort}/raw`, body, {}));
    ours.push(
      await putTimed(`${base}/api/device/v1/sessions/Upload/${String(10 + i).padStart(2, '0')}112026/gps.six`, body, {
        authorization: `Bearer ${token}`,
      }),
    );
    parse.push(parseAlone(body));
  }
  result.upload_vs_raw = median(raw) / median(ours);
  const times = median(ours) / median(raw);
  rows.push([
    'upload gps.six (a full day)',
    `${fmt(body.length / 1e6)} MB answered in ${fmt(median(ours), 0)} ms (line parse alone ${fmt(median(parse), 0)} ms); median of ${runs}`,
    `bare PUT to disk ${fmt(median(raw), 0)} ms`,
    `${fmt(times, 2)}× the bare PUT (upload_vs_raw ${fmt(result.upload_vs_raw, 2)}): ${verdict(times <= 2)}`,
    '≤ 2× (upload_vs_raw ≥ 0.5)',
  ]);
}
