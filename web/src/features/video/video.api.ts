import { sessionPath, type SessionAddress } from '#core/contracts/session-paths.ts';
import { videoListSchema, type VideoSyncRecord } from '#core/contracts/videos.contract.ts';
import type { SessionTrace } from '#core/video/sync.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { readVideo, type VideoReading } from './video-reading';

const videosPath = (s: SessionAddress) => `${sessionPath(s)}/videos`;

export const sessionVideosQuery = (s: SessionAddress) => ({
  queryKey: ['session-videos', s.device, s.track, s.date] as const,
  queryFn: () => apiRequest(videosPath(s), { schema: videoListSchema, maxOperationMs: 10_000 }),
  staleTime: 60_000,
  retry: false,
});

/** Keeps one video's sync (the file itself stays on the device). */
export function saveSessionVideo(s: SessionAddress, video: VideoSyncRecord): Promise<unknown> {
  return apiRequest(`${videosPath(s)}/${encodeURIComponent(video.id)}`, {
    method: 'PUT',
    body: video,
    maxOperationMs: 15_000,
  });
}

/** Reads the videos in a module worker (here where the browser has none). */
export function readVideos(files: File[], trace: SessionTrace | null): Promise<VideoReading[]> {
  if (typeof Worker === 'undefined') return Promise.all(files.map((f) => readVideo(f, trace)));
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./video-sync-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (ev: MessageEvent<VideoReading[]>) => {
      worker.terminate();
      resolve(ev.data);
    };
    worker.onerror = (ev) => {
      worker.terminate();
      reject(new Error(ev.message || 'video worker failed'));
    };
    worker.postMessage({ files, trace });
  });
}
