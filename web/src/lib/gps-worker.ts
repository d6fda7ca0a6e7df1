/// <reference lib="webworker" />
/** The GPS file's download and decoding, off the page's main thread (gps-download.ts). */
import { columnBuffers, downloadGps, failure, type GpsDownloadMessage } from './gps-download';

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = (ev: MessageEvent<{ url: string }>) => {
  const post = (m: GpsDownloadMessage) => self.postMessage(m, m.kind === 'done' ? columnBuffers(m.columns) : []);
  downloadGps(ev.data.url, post).catch((err: unknown) => post(failure(err)));
};
