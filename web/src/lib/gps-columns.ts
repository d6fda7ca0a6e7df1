import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { decodeGpsColumns } from '../../../core/formats/gps-columns-codec';
import type { GpsColumns } from '../../../core/formats/six-format';
import { ApiError } from './api-client';
import { sessionPath } from './sessions-api';

export interface SessionRef {
  hw: string;
  pista: string;
  data: string;
}

/** The session's GPS columns (binary, parsed once on the server), with download progress 0..1. */
export function useGpsColumnsFor(s: SessionRef | null) {
  const [progress, setProgress] = useState(0);
  const query = useQuery({
    queryKey: ['gps-columns', s?.hw, s?.pista, s?.data],
    enabled: Boolean(s),
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }): Promise<GpsColumns> => {
      setProgress(0);
      const res = await fetch(`${sessionPath(s!.hw, s!.pista, s!.data)}/gps.bin`, { credentials: 'same-origin', signal });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
        throw new ApiError((body.code as never) ?? 'storage/unknown', res.status, body.message ?? res.statusText);
      }
      const total = Number(res.headers.get('x-decoded-length')) || 0;
      const reader = res.body!.getReader();
      const chunks: Uint8Array[] = [];
      let received = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.length;
        if (total) setProgress(Math.min(1, received / total));
      }
      const bytes = new Uint8Array(received);
      let offset = 0;
      for (const c of chunks) {
        bytes.set(c, offset);
        offset += c.length;
      }
      setProgress(1);
      return decodeGpsColumns(bytes);
    },
  });
  return { ...query, progress };
}
