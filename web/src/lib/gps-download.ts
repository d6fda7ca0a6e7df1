/**
 * A session's GPS file downloaded and decoded: the fetch, its progress and the decoding of a
 * whole day's columns (about a hundred thousand samples). Run in a worker (gps-worker.ts) by the
 * page, so that a phone's main thread stays free to answer taps; here as plain functions, so
 * the same code runs where there is no worker.
 */
import { decodeGpsColumns } from '#core/formats/gps-columns-codec.ts';
import type { GpsColumns } from '#core/formats/gps-columns.ts';
import { STORED_AT_HEADER } from './offline-contract';

export type GpsDownloadMessage =
  | { kind: 'progress'; share: number }
  | { kind: 'done'; columns: GpsColumns; storedAt: string | null }
  | { kind: 'refused'; status: number; code?: string; message: string };

/** Downloads and decodes `url`, telling `post` its progress (in steps of 5 %) and the outcome. */
export async function downloadGps(
  url: string,
  post: (m: GpsDownloadMessage) => void,
  signal?: AbortSignal,
): Promise<void> {
  post({ kind: 'progress', share: 0 });
  const res = await fetch(url, { credentials: 'same-origin', signal });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
    return post({ kind: 'refused', status: res.status, code: body.code, message: body.message ?? res.statusText });
  }
  const total = Number(res.headers.get('x-decoded-length')) || 0;
  const reader = res.body!.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  let shown = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    // In steps of 5 %: each step re-renders the page, and a download arrives in ~100 pieces.
    const share = total ? Math.min(1, received / total) : 0;
    if (share - shown >= 0.05) post({ kind: 'progress', share: (shown = share) });
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.length;
  }
  post({ kind: 'progress', share: 1 });
  post({ kind: 'done', columns: decodeGpsColumns(bytes), storedAt: res.headers.get(STORED_AT_HEADER) });
}

/** The typed arrays' buffers of the columns, handed over to the page rather than copied. */
export function columnBuffers(c: GpsColumns): ArrayBuffer[] {
  return Object.values(c).flatMap((v) => (ArrayBuffer.isView(v) ? [v.buffer as ArrayBuffer] : []));
}

/** A download that failed on the way: no network (the common case at a track), or bytes that do not decode. */
export function failure(err: unknown): GpsDownloadMessage {
  const message = err instanceof Error ? err.message : String(err);
  return err instanceof RangeError
    ? { kind: 'refused', status: 0, message }
    : { kind: 'refused', status: 0, code: 'auth/network-request-failed', message };
}
