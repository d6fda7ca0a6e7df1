/**
 * STAND-IN (video-ui branch): the video-sync helper writes the real module; the merge drops this
 * commit. Signatures as in notes/video-contract.md; only what the pages need to compile.
 */

/** Random access to a file's bytes (a browser Blob, a Node file handle). */
export interface ByteSource {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export interface VideoTelemetry {
  durationMs: number;
  /** e.g. 'avc1.64001f', 'hvc1...' */
  codec: string;
  width: number;
  height: number;
  /** The MP4's own creation time, as written (often local). */
  creationTimeMs: number | null;
  /** Empty without GPS. */
  fixes: { videoMs: number; utcMs: number; lat: number; lon: number; speedKmh: number }[];
  bytesRead: number;
}

export function readVideoTelemetry(_source: ByteSource): Promise<VideoTelemetry> {
  return Promise.reject(new Error('stand-in: readVideoTelemetry comes with the video-sync helper'));
}

/** SHA-256 (hex) of the first and last MiB plus the size. */
export function fingerprint(_source: ByteSource): Promise<string> {
  return Promise.reject(new Error('stand-in: fingerprint comes with the video-sync helper'));
}
