/// <reference lib="webworker" />
/** Clip export off the page's main thread (clip-encode.ts); mediabunny is loaded only here. */
import { encodeClip, type ClipMessage, type ClipRequest } from './clip-encode';

declare const self: DedicatedWorkerGlobalScope;

const cancelled: Parameters<typeof encodeClip>[2] = { requested: false };

self.onmessage = (ev: MessageEvent<{ kind: 'start'; request: ClipRequest } | { kind: 'cancel' }>) => {
  if (ev.data.kind === 'cancel') {
    cancelled.requested = true;
    void cancelled.conversion?.cancel();
    return;
  }
  const post = (m: ClipMessage) => self.postMessage(m, m.kind === 'done' ? [m.mp4] : []);
  encodeClip(ev.data.request, post, cancelled).catch((err: unknown) =>
    post({ kind: 'failed', message: err instanceof Error ? err.message : String(err) }),
  );
};
