import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { GpsColumns } from '#core/formats/gps-columns.ts';
import { ApiError } from './api-client';
import { downloadGps, failure, type GpsDownloadMessage } from './gps-download';
import { noteStoredAt } from './offline';
import { sessionPath, type SessionAddress } from '#core/contracts/session-paths.ts';

const gpsColumnsKey = (s: SessionAddress | null) => ['gps-columns', s?.device, s?.track, s?.date] as const;

/**
 * Downloads the session's binary GPS columns (parsed once on the server) and decodes them, in a
 * worker where the browser has one (a day's decoding held a phone's main thread for a tenth of a
 * second), else here.
 */
function fetchGpsColumns(
  s: SessionAddress,
  onProgress: (share: number) => void = () => {},
  signal?: AbortSignal,
): Promise<GpsColumns> {
  const url = new URL(`${sessionPath(s)}/gps.bin`, window.location.href).href;
  return new Promise((resolve, reject) => {
    let stop = () => {};
    const answer = (m: GpsDownloadMessage) => {
      if (m.kind === 'progress') return onProgress(m.share);
      stop();
      if (m.kind === 'refused')
        return reject(new ApiError((m.code as never) ?? 'storage/unknown', m.status, m.message));
      noteStoredAt(m.storedAt);
      resolve(m.columns);
    };
    if (typeof Worker === 'undefined') {
      downloadGps(url, answer, signal).catch((err: unknown) => answer(failure(err)));
      return;
    }
    const worker = new Worker(new URL('./gps-worker.ts', import.meta.url), { type: 'module' });
    stop = () => worker.terminate();
    worker.onmessage = (ev: MessageEvent<GpsDownloadMessage>) => answer(ev.data);
    worker.onerror = (ev) => {
      stop();
      reject(new Error(ev.message || 'GPS worker failed'));
    };
    signal?.addEventListener('abort', () => {
      stop();
      reject(signal.reason);
    });
    worker.postMessage({ url });
  });
}

/**
 * The session's GPS columns, with download progress 0..1 for the progress bar. No structural
 * sharing: a fresh download is never deep-equal to the last, and comparing would read, so
 * decode, every lazy column.
 */
export function useGpsColumnsFor(s: SessionAddress | null) {
  const [progress, setProgress] = useState(0);
  const query = useQuery({
    queryKey: gpsColumnsKey(s),
    enabled: Boolean(s),
    staleTime: 5 * 60_000,
    structuralSharing: false,
    queryFn: ({ signal }) => fetchGpsColumns(s!, setProgress, signal),
  });
  return { ...query, progress };
}
