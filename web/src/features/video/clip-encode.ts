/**
 * A clip of the rider's video with the data drawn on it, made in the browser: mediabunny demuxes
 * the MP4, decodes with WebCodecs' VideoDecoder, hands each frame to us to draw on, encodes H.264
 * with VideoEncoder and muxes the MP4 (the sound copied as it is). Run in a worker (clip-worker.ts).
 */
import {
  ALL_FORMATS,
  BlobSource,
  BufferTarget,
  canEncodeVideo,
  Conversion,
  Input,
  Mp4OutputFormat,
  Output,
  Quality,
} from 'mediabunny';
import type { ClipOverlay } from './clip-data';
import { drawOverlay, type OverlayLabels } from './clip-overlay';

export interface ClipRequest {
  file: Blob;
  overlay: ClipOverlay;
  labels: OverlayLabels;
  /** 720 or 1080 lines. */
  height: number;
}

export type ClipMessage =
  | { kind: 'progress'; share: number }
  | { kind: 'done'; mp4: ArrayBuffer; width: number; height: number; seconds: number; workMs: number }
  /** What the browser or the file cannot do, said on the page in Portuguese. */
  | { kind: 'refused'; reason: 'no-encoder' | 'hevc' | 'cannot-decode' | 'empty' }
  /** The browser's H.264 encoder refuses the clip's size (VideoEncoder.isConfigSupported). */
  | { kind: 'refused'; reason: 'no-h264'; width: number; height: number }
  | { kind: 'canceled' }
  | { kind: 'failed'; message: string };

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

export async function encodeClip(
  req: ClipRequest,
  post: (m: ClipMessage) => void,
  cancelled: { conversion?: Conversion; requested: boolean },
): Promise<void> {
  const started = performance.now();
  if (typeof VideoEncoder === 'undefined' || typeof VideoDecoder === 'undefined')
    return post({ kind: 'refused', reason: 'no-encoder' });
  const { overlay } = req;
  if (overlay.toMs <= overlay.fromMs) return post({ kind: 'refused', reason: 'empty' });
  const input = new Input({ source: new BlobSource(req.file), formats: ALL_FORMATS });
  const track = await input.getPrimaryVideoTrack();
  if (!track) return post({ kind: 'refused', reason: 'cannot-decode' });
  if (!(await track.canDecode()))
    return post({ kind: 'refused', reason: track.codec === 'hevc' ? 'hevc' : 'cannot-decode' });
  const height = even(req.height);
  const width = even((height * track.displayWidth) / track.displayHeight);
  if (!(await canEncodeVideo('avc', { width, height })))
    return post({ kind: 'refused', reason: 'no-h264', width, height });

  const output = new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target: new BufferTarget() });
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d')!;
  const startS = overlay.fromMs / 1000;
  const conversion = await Conversion.init({
    input,
    output,
    tracks: 'primary',
    trim: { start: startS, end: overlay.toMs / 1000 },
    showWarnings: false,
    // None of the camera's own tags: a shared clip carries what is drawn on it, not the camera's
    // serial number and settings (and Chromium's demuxer refuses GoPro's tags copied as they are).
    tags: {},
    video: {
      width,
      height,
      fit: 'contain',
      codec: 'avc',
      quality: new Quality('high'),
      forceTranscode: true,
      process: (sample) => {
        sample.draw(ctx, 0, 0, width, height);
        // The sample's time is the clip's own (from 0); the overlay's is the file's.
        drawOverlay(ctx, overlay, req.labels, (startS + sample.timestamp) * 1000, width, height);
        return canvas;
      },
      processedWidth: width,
      processedHeight: height,
    },
    audio: { codec: 'aac' },
  });
  if (!conversion.isValid) return post({ kind: 'refused', reason: 'cannot-decode' });
  cancelled.conversion = conversion;
  if (cancelled.requested) return post({ kind: 'canceled' });
  let shown = 0;
  conversion.onProgress = (share) => {
    if (share - shown >= 0.02 || share === 1) post({ kind: 'progress', share: (shown = share) });
  };
  try {
    await conversion.execute();
  } catch (err) {
    if (cancelled.requested) return post({ kind: 'canceled' });
    throw err;
  }
  const mp4 = (output.target as BufferTarget).buffer!;
  post({
    kind: 'done',
    mp4,
    width,
    height,
    seconds: (overlay.toMs - overlay.fromMs) / 1000,
    workMs: performance.now() - started,
  });
}
