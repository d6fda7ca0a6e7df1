import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { decodeGpsColumns } from '../../../core/formats/gps-columns-codec';
import type { GpsColumns } from '../../../core/formats/gps-columns';
import { ApiError } from './api-client';
import { noteAnswer } from './offline';
import { sessionPath, type SessionAddress } from '../../../core/contracts/session-paths';

export const gpsColumnsKey = (s: SessionAddress | null) => ['gps-columns', s?.device, s?.track, s?.date] as const;

/** Downloads the session's binary GPS columns (parsed once on the server) and decodes them. */
export async function fetchGpsColumns(s: SessionAddress, onProgress: (share: number) => void = () => {}, signal?: AbortSignal): Promise<GpsColumns> {
  onProgress(0);
  const url = `${sessionPath(s)}/gps.bin`;
  const res = await fetch(url, { credentials: 'same-origin', signal });
  noteAnswer(res);
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
    throw new ApiError((body.code as never) ?? 'storage/unknown', res.status, body.message ?? res.statusText);
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
    if (share - shown >= 0.05) onProgress((shown = share));
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.length;
  }
  onProgress(1);
  // Lazily: the first paint reads five of the twelve columns; the others wait until read.
  return decodeGpsColumns(bytes, { lazy: true });
}

/**
 * The session's GPS columns, with download progress 0..1 for the progress bar. No structural
 * sharing: a fresh download is never deep-equal to the last, and comparing would read, so
 * decode, every lazy column.
 */
export function useGpsColumnsFor(s: SessionAddress | null, wanted = true) {
  const [progress, setProgress] = useState(0);
  const query = useQuery({
    queryKey: gpsColumnsKey(s),
    enabled: Boolean(s) && wanted,
    staleTime: 5 * 60_000,
    structuralSharing: false,
    queryFn: ({ signal }) => fetchGpsColumns(s!, setProgress, signal),
  });
  return { ...query, progress };
}
