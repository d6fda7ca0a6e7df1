// A session's GPS columns on the page: downloaded with progress, decoded in a worker, cached per session.
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { GpsColumns } from '#core/formats/gps-columns.ts';
import { ApiError } from './api-client';
import { downloadGps, failure, type GpsDownloadMessage } from './gps-download';
import { noteStoredAt } from './offline';
import { queryKeys } from './query-keys';
import { sessionPath, type SessionAddress } from '#core/contracts/session-paths.ts';

const gpsColumnsKey = queryKeys.gpsColumns.of;

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
 * Each download's progress 0..1, by query key. Kept apart from the columns' query: only the
 * progress bar reads it, so a step re-renders that bar, not the page that waits for the columns.
 */
const progressOf = new Map<string, number>();
const progressListeners = new Set<() => void>();
function setProgress(key: string, share: number): void {
  progressOf.set(key, share);
  for (const listener of progressListeners) listener();
}
function onProgress(listener: () => void): () => void {
  progressListeners.add(listener);
  return () => progressListeners.delete(listener);
}

/** The download progress 0..1 of the session's GPS columns (0 before it starts), for a progress bar. */
export function useGpsProgress(s: SessionAddress | null): number {
  const key = JSON.stringify(gpsColumnsKey(s));
  return useSyncExternalStore(onProgress, () => progressOf.get(key) ?? 0);
}

/**
 * The session's GPS columns (their download progress: `useGpsProgress`). No structural
 * sharing: a fresh download is never deep-equal to the last, and comparing would read, so
 * decode, every lazy column.
 */
export function useGpsColumnsFor(s: SessionAddress | null) {
  const key = JSON.stringify(gpsColumnsKey(s));
  return useQuery({
    queryKey: gpsColumnsKey(s),
    enabled: Boolean(s),
    staleTime: 5 * 60_000,
    structuralSharing: false,
    queryFn: ({ signal }) => fetchGpsColumns(s!, (share) => setProgress(key, share), signal),
  });
}
