/**
 * A device's full-day upload: a 10 MB gps.six PUT to the device API until its answer, against a
 * bare PUT that writes the same body to a file and fsyncs it (the hello server's /raw), alternated.
 * The goal (`upload_link_vs_raw`) is what a device feels: both sent at the rate of a good track
 * Wi-Fi link (LINK_BYTES_PER_SECOND), which the server reads as it arrives. Over loopback
 * (`upload_vs_raw`, information) the body arrives at once and only the server's CPU shows; beside
 * it, the line parse of the same bytes alone in this process (64 KB at a time, as the server runs it).
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

/** 4 MB/s (32 Mbit/s): a good track Wi-Fi link; a 10 MB day takes 2.5 s to send. */
const LINK_BYTES_PER_SECOND = 4e6;

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
  const rawLink: number[] = [];
  const oursLink: number[] = [];
  const linkRuns = Math.min(runs, 3);
  for (let i = 0; i < linkRuns; i++) {
    rawLink.push(await putTimed(`http://127.0.0.1:${helloPort}/raw`, body, {}, LINK_BYTES_PER_SECOND));
    oursLink.push(
      await putTimed(
        `${base}/api/device/v1/sessions/Upload/${String(10 + i).padStart(2, '0')}122026/gps.six`,
        body,
        { authorization: `Bearer ${token}` },
        LINK_BYTES_PER_SECOND,
      ),
    );
  }
  result.upload_vs_raw = median(raw) / median(ours);
  result.upload_link_vs_raw = median(rawLink) / median(oursLink);
  const times = median(ours) / median(raw);
  const linkTimes = median(oursLink) / median(rawLink);
  rows.push([
    'upload gps.six (a full day) over a 4 MB/s link',
    `${fmt(body.length / 1e6)} MB answered in ${fmt(median(oursLink), 0)} ms; median of ${linkRuns}`,
    `bare PUT to disk over the same link ${fmt(median(rawLink), 0)} ms`,
    `${fmt(linkTimes, 2)}× the bare PUT (upload_link_vs_raw ${fmt(result.upload_link_vs_raw, 2)}): ${verdict(linkTimes <= 2)}`,
    '≤ 2× (upload_link_vs_raw ≥ 0.5)',
  ]);
  rows.push([
    'upload gps.six (a full day) over loopback',
    `${fmt(body.length / 1e6)} MB answered in ${fmt(median(ours), 0)} ms (line parse alone ${fmt(median(parse), 0)} ms); median of ${runs}`,
    `bare PUT to disk ${fmt(median(raw), 0)} ms`,
    `${fmt(times, 2)}× the bare PUT (upload_vs_raw ${fmt(result.upload_vs_raw, 2)}): the server's CPU`,
    '(information)',
  ]);
}
