// The session's video syncs on the server, and reading a rider's video files in a worker.
import { sessionPath, type SessionAddress } from '#core/contracts/session-paths.ts';
import type { VideoSyncRecord } from '#core/contracts/videos.contract.ts';
import type { SessionTrace } from '#core/video/sync.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { queryKeys } from '#web/lib/query-keys.ts';
import type { VideoReading } from './video-reading';

const videosPath = (s: SessionAddress) => `${sessionPath(s)}/videos`;

export const sessionVideosQuery = (s: SessionAddress) => ({
  queryKey: queryKeys.sessionVideos.of(s),
  // Read as its type (decision 002): the panel shows on the analytics page, which loads no zod.
  queryFn: () => apiRequest<VideoSyncRecord[]>(videosPath(s), { maxOperationMs: 10_000 }),
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

/**
 * Reads the videos in a module worker, the only place the readers (mp4box, the GPMF reader) load:
 * when a video is picked, never with the page showing the panel. Every browser with the video
 * feature's WebCodecs has module workers; reading in the page too would put the readers in the
 * page's code (and split the app's first chunks around them).
 */
export function readVideos(files: File[], trace: SessionTrace | null): Promise<VideoReading[]> {
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
