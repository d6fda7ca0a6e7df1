/// <reference lib="webworker" />
/** The picked videos' telemetry and sync, off the page's main thread (video-reading.ts). */
import { readVideo, type VideoReading, type VideoReadingRequest } from './video-reading';

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = async (ev: MessageEvent<VideoReadingRequest>) => {
  const readings: VideoReading[] = [];
  for (const file of ev.data.files) readings.push(await readVideo(file, ev.data.trace));
  self.postMessage(readings);
};
