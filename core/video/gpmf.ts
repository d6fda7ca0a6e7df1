/**
 * GoPro telemetry from an MP4, read by ranges: the box headers, the index (moov) and the samples
 * of the GPMF metadata track ('gpmd'), never the video itself. mp4box parses the index,
 * gpmf-klv.ts the GPMF. Runs in a web worker (a File) and in Node (a file handle) alike.
 */
import { createFile, MP4BoxBuffer, type Movie } from 'mp4box';
import { AppError } from '../errors';
import { gpsuToUtcMs, numbers, streamsOf, text, type KlvEntry, type KlvStream } from './gpmf-klv';

/** A file read by ranges: a browser File/Blob (web/src/features/video/byte-source.ts) or a Node file handle. */
export interface ByteSource {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export interface VideoFix {
  /** Time in the video, ms from its first frame. */
  videoMs: number;
  /** UTC time of the fix, ms since the epoch. */
  utcMs: number;
  lat: number;
  lon: number;
  speedKmh: number;
}

/** Which GPMF stream the fixes came from and how far its UTC clock may be from the fixes' real time. */
interface GpsClock {
  source: 'GPS9' | 'GPS5' | 'GPRI';
  /** One standard deviation, ms. */
  errorMs: number;
}

export interface VideoTelemetry {
  durationMs: number;
  /** The MIME codecs string of the video track, e.g. 'avc1.64001f' or 'hvc1.1.6.L150.90'. */
  codec: string;
  width: number;
  height: number;
  /** The MP4's own creation time, its digits read as UTC (cameras often write local time). */
  creationTimeMs: number | null;
  /** Empty without GPS. */
  fixes: VideoFix[];
  /** Present when `fixes` is not empty. */
  gpsClock?: GpsClock;
  /** Bytes read from the source to get all this. */
  bytesRead: number;
}

/** An index larger than this is not a camera's (a 4 GB GoPro chapter's is a few MB). */
const MAX_MOOV_BYTES = 64 * 1024 * 1024;
const MAX_TOP_LEVEL_BOXES = 10_000;
/** GPMF samples read at once (a browser File serves ranged reads concurrently). */
const READ_CONCURRENCY = 8;
/** 1904-01-01, the MP4 epoch: an unset creation time reads as this. */
const MP4_EPOCH_MS = Date.UTC(1904, 0, 1);

function notMp4(detail: string): AppError {
  return new AppError('video/not-mp4', `Not a readable MP4 video: ${detail}.`);
}

/** Counts what a source hands out, so a caller can see that only the index and metadata were read. */
function counting(source: ByteSource): ByteSource & { bytesRead: number } {
  const counted = {
    size: source.size,
    bytesRead: 0,
    async read(offset: number, length: number) {
      const bytes = await source.read(offset, length);
      counted.bytesRead += bytes.length;
      return bytes;
    },
  };
  return counted;
}

interface BoxPlace {
  type: string;
  offset: number;
  size: number;
}

/** Walks the top-level boxes by their headers alone (16 bytes each) to find ftyp and moov. */
async function topLevelBoxes(source: ByteSource): Promise<{ ftyp: BoxPlace; moov: BoxPlace }> {
  let ftyp: BoxPlace | undefined;
  let moov: BoxPlace | undefined;
  let offset = 0;
  for (let n = 0; offset + 8 <= source.size && n < MAX_TOP_LEVEL_BOXES; n++) {
    const head = await source.read(offset, Math.min(16, source.size - offset));
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    let size = view.getUint32(0);
    const type = String.fromCharCode(head[4]!, head[5]!, head[6]!, head[7]!);
    if (!/^[\x20-\x7e]{4}$/.test(type)) throw notMp4(`no box at byte ${offset}`);
    if (size === 1) {
      if (head.length < 16) throw notMp4('a box header is cut short');
      size = Number(view.getBigUint64(8));
    } else if (size === 0) {
      size = source.size - offset; // the last box runs to the end of the file
    }
    if (size < 8 || offset + size > source.size) throw notMp4(`box '${type}' at byte ${offset} runs past the end`);
    if (type === 'ftyp' && !ftyp) ftyp = { type, offset, size };
    if (type === 'moov') moov = { type, offset, size };
    if (ftyp && moov) return { ftyp, moov };
    offset += size;
  }
  if (!moov) throw notMp4('no index (moov): the recording may have been cut short');
  throw notMp4('no ftyp box');
}

/** The sample table of the metadata track, and what the page needs to know of the video. */
async function readIndex(source: ByteSource) {
  const { ftyp, moov } = await topLevelBoxes(source);
  if (ftyp.size > 4096 || moov.size > MAX_MOOV_BYTES) throw notMp4('its index is larger than any camera writes');
  // mp4box wants ftyp then moov; handed them back to back, it builds every track's sample list
  // from the index (chunk offsets are absolute, so where the moov sat does not matter).
  const [ftypBytes, moovBytes] = await Promise.all([
    source.read(ftyp.offset, ftyp.size),
    source.read(moov.offset, moov.size),
  ]);
  const joined = new Uint8Array(ftyp.size + moov.size);
  joined.set(ftypBytes, 0);
  joined.set(moovBytes, ftyp.size);
  const file = createFile();
  let movie: Movie | undefined;
  let failure: string | undefined;
  file.onReady = (m) => (movie = m);
  file.onError = (_module, message) => (failure = message);
  file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(joined.buffer, 0), true);
  file.flush();
  if (!movie) throw notMp4(failure ?? 'its index could not be parsed');
  return { file, movie };
}

interface GpmfSample {
  offset: number;
  size: number;
  ctsMs: number;
  durationMs: number;
}

/** One MP4 sample of the metadata track: its time in the video and the GPMF streams in it. */
export interface GpmfPayload {
  ctsMs: number;
  durationMs: number;
  streams: KlvStream[];
}

async function readPayloads(source: ByteSource, samples: GpmfSample[]): Promise<Uint8Array[]> {
  const parts: Uint8Array[] = new Array<Uint8Array>(samples.length);
  for (let i = 0; i < samples.length; i += READ_CONCURRENCY) {
    const batch = samples.slice(i, i + READ_CONCURRENCY);
    const read = await Promise.all(batch.map((s) => source.read(s.offset, s.size)));
    read.forEach((bytes, j) => (parts[i + j] = bytes));
  }
  return parts;
}

/** GPS9 carries its own time: days since 2000-01-01 and seconds of the day. */
const GPS9_EPOCH_MS = Date.UTC(2000, 0, 1);
/** A single-value entry's value (STMP, GPSF); NaN where it is missing or unreadable. */
const firstNumber = (entry: KlvEntry | undefined) => (entry ? (numbers(entry)?.[0]?.[0] ?? NaN) : NaN);

/** A stream's microsecond stamp (STMP) further than this from its payload's MP4 time belongs to another chapter's count. */
const STMP_TRUST_MS = 2_000;

/** One stream's samples of one payload, each with its time in the video. */
export interface TimedStream {
  stream: KlvStream;
  /** Index of the payload it came in. */
  payload: number;
  rows: number[][];
  videoMs: number[];
}

/**
 * Every payload's `key` stream, its samples spread over the payload's span: from the stream's
 * own microsecond stamp (STMP) to the next payload's where the camera writes them, else over the
 * MP4 sample's time and duration.
 */
export function timedStreams(payloads: GpmfPayload[], key: string): TimedStream[] {
  const found = payloads.flatMap((p, payload) => {
    const stream = p.streams.find((s) => s.key === key);
    if (!stream) return [];
    const scale = stream.meta.get('SCAL');
    const type = stream.meta.get('TYPE');
    const rows = numbers(stream.samples, scale ? (numbers(scale)?.flat() ?? []) : [], type && text(type));
    if (!rows) return [];
    const stmp = stream.meta.get('STMP');
    const stamped = firstNumber(stmp) / 1000;
    const startMs = Math.abs(stamped - p.ctsMs) <= STMP_TRUST_MS ? stamped : p.ctsMs;
    return [{ stream, payload, rows, startMs }];
  });
  return found.map((f, k) => {
    const next = found[k + 1];
    const p = payloads[f.payload]!;
    const endMs = next && next.payload === f.payload + 1 ? next.startMs : f.startMs + p.durationMs;
    const step = (endMs - f.startMs) / f.rows.length;
    return { stream: f.stream, payload: f.payload, rows: f.rows, videoMs: f.rows.map((_, i) => f.startMs + i * step) };
  });
}

/**
 * GPRI (a Karma drone's raw GPS) times its fixes in the drone's seconds since boot; SYST pairs
 * those with Unix seconds. Whole Unix seconds: the pairing is known to within about a second.
 */
function bootToUtcMs(syst: TimedStream[]): number | undefined {
  const pairs = syst
    .flatMap((s) => s.rows)
    .filter((v) => v.length >= 2)
    .map((v) => v[1]! - v[0]!);
  if (pairs.length === 0) return undefined;
  // Unix seconds are whole: the true difference lies in [max, min + 1) when they were truncated.
  const lo = Math.max(...pairs);
  const hi = Math.min(...pairs) + 1;
  const seconds = lo <= hi ? (lo + hi) / 2 : pairs.sort((a, b) => a - b)[pairs.length >> 1]!;
  return seconds * 1000;
}

const usable = (lat: number, lon: number) => Number.isFinite(lat) && Number.isFinite(lon) && (lat !== 0 || lon !== 0);

function gps9Fixes(streams: TimedStream[]): VideoFix[] {
  const fixes: VideoFix[] = [];
  for (const s of streams) {
    s.rows.forEach((v, i) => {
      if (v.length < 9 || !(v[8]! >= 2) || !usable(v[0]!, v[1]!)) return;
      const utcMs = GPS9_EPOCH_MS + v[5]! * 86_400_000 + Math.round(v[6]! * 1000);
      fixes.push({ videoMs: s.videoMs[i]!, utcMs, lat: v[0]!, lon: v[1]!, speedKmh: v[3]! * 3.6 });
    });
  }
  return fixes;
}

/**
 * GPS5 fixes carry no time of their own: GPSU stamps each payload (about a second of fixes), and
 * the fixes are spread evenly from it to the next payload's stamp.
 */
function gps5Fixes(streams: TimedStream[]): VideoFix[] {
  const stamps = streams.map((s) => {
    const gpsu = s.stream.meta.get('GPSU');
    return gpsu ? gpsuToUtcMs(gpsu) : null;
  });
  const fixes: VideoFix[] = [];
  let lastStepMs: number | undefined;
  streams.forEach((s, k) => {
    const utc = stamps[k];
    if (utc == null) return;
    const n = k + 1 < streams.length ? k + 1 : -1;
    const nextUtc = n > 0 ? stamps[n] : null;
    const payloads = n > 0 ? streams[n]!.payload - s.payload : 1;
    const stepMs = nextUtc != null ? (nextUtc - utc) / payloads / s.rows.length : (lastStepMs ?? 1000 / s.rows.length);
    lastStepMs = stepMs;
    const gpsf = s.stream.meta.get('GPSF');
    const fix = gpsf ? firstNumber(gpsf) : 3;
    if (!(fix >= 2)) return; // no fix, or a state that does not read
    s.rows.forEach((v, i) => {
      if (v.length < 4 || !usable(v[0]!, v[1]!)) return;
      fixes.push({ videoMs: s.videoMs[i]!, utcMs: utc + i * stepMs, lat: v[0]!, lon: v[1]!, speedKmh: v[3]! * 3.6 });
    });
  });
  return fixes;
}

function gpriFixes(gpri: TimedStream[], bootToUtc: number): VideoFix[] {
  const fixes: VideoFix[] = [];
  for (const s of gpri) {
    s.rows.forEach((v, i) => {
      if (v.length < 9 || !(v[8]! >= 2) || !usable(v[1]!, v[2]!)) return;
      fixes.push({
        videoMs: s.videoMs[i]!,
        utcMs: v[0]! * 1000 + bootToUtc,
        lat: v[1]!,
        lon: v[2]!,
        speedKmh: v[6]! * 3.6,
      });
    });
  }
  // The drone's fixes come unevenly within a payload: their own times, moved by the clip's median
  // gap to the video's clock (both clocks count seconds alike), place them better than an even spread.
  if (fixes.length === 0) return fixes;
  const gaps = fixes.map((f) => f.videoMs - f.utcMs).sort((a, b) => a - b);
  const gap = gaps[gaps.length >> 1]!;
  for (const f of fixes) f.videoMs = f.utcMs + gap;
  return fixes;
}

/** The fixes of the best GPS stream the file has: GPS9 (timed fix by fix), GPS5, or a Karma's GPRI. */
function fixesOf(payloads: GpmfPayload[]): { fixes: VideoFix[]; clock?: GpsClock } {
  const gps9 = timedStreams(payloads, 'GPS9');
  // Only where every GPS payload has GPS9 (a camera writing both): else the GPS5 the others carry.
  if (gps9.length > 0 && gps9.length >= timedStreams(payloads, 'GPS5').length) {
    return { fixes: gps9Fixes(gps9), clock: { source: 'GPS9', errorMs: 50 } };
  }
  const gps5 = timedStreams(payloads, 'GPS5');
  if (gps5.length > 0) return { fixes: gps5Fixes(gps5), clock: { source: 'GPS5', errorMs: 100 } };
  const bootToUtc = bootToUtcMs(timedStreams(payloads, 'SYST'));
  const gpri = timedStreams(payloads, 'GPRI');
  if (gpri.length > 0 && bootToUtc !== undefined) {
    return { fixes: gpriFixes(gpri, bootToUtc), clock: { source: 'GPRI', errorMs: 700 } };
  }
  return { fixes: [] };
}

/** How far a fix's GPS time may stray from the clip's own before it is a stale stamp, ms. */
const STALE_TIME_MS = 300;

/**
 * Drops fixes whose GPS time disagrees with the video's clock: a camera that has just locked can
 * stamp a payload with a time seconds old (the MAX sample's first second runs 2.5 s of GPS time
 * in 1 s of video), and the library spreads that payload's fixes over the wrong span.
 */
function withoutStaleTimes(fixes: VideoFix[]): VideoFix[] {
  if (fixes.length < 3) return fixes;
  const rate = (a: VideoFix, b: VideoFix) => (b.utcMs - a.utcMs) / (b.videoMs - a.videoMs);
  const steady = fixes.filter((f, i) => {
    const before = i > 0 ? rate(fixes[i - 1]!, f) : undefined;
    const after = i < fixes.length - 1 ? rate(f, fixes[i + 1]!) : undefined;
    // A fix is steady when its GPS time runs with the video on at least one side of it.
    return [before, after].some((r) => r !== undefined && r > 0.8 && r < 1.25);
  });
  if (steady.length === 0) return steady;
  const gaps = steady.map((f) => f.utcMs - f.videoMs).sort((a, b) => a - b);
  const median = gaps[gaps.length >> 1]!;
  return steady.filter((f) => Math.abs(f.utcMs - f.videoMs - median) <= STALE_TIME_MS);
}

/** Reads a video's GPS fixes (GPMF GPS9, GPS5 or a Karma's GPRI) and what the page shows about it, by ranged reads. */
export async function readVideoTelemetry(input: ByteSource): Promise<VideoTelemetry> {
  const source = counting(input);
  const { file, movie } = await readIndex(source);
  const video = movie.videoTracks[0];
  const durationMs = movie.timescale > 0 ? (movie.duration / movie.timescale) * 1000 : 0;
  const created = movie.created?.getTime();
  const base = {
    durationMs,
    codec: video?.codec ?? '',
    width: video?.video?.width ?? video?.track_width ?? 0,
    height: video?.video?.height ?? video?.track_height ?? 0,
    creationTimeMs: created !== undefined && Number.isFinite(created) && created > MP4_EPOCH_MS ? created : null,
  };
  const gpmd = movie.tracks.find((t) => t.codec.startsWith('gpmd'));
  if (!gpmd) return { ...base, fixes: [], bytesRead: source.bytesRead };

  const samples: GpmfSample[] = file
    .getTrackSamplesInfo(gpmd.id)
    .filter((s) => s.size > 0 && s.offset + s.size <= source.size)
    .map((s) => ({
      offset: s.offset,
      size: s.size,
      ctsMs: (s.cts * 1000) / s.timescale,
      durationMs: (s.duration * 1000) / s.timescale,
    }));
  if (samples.length === 0) return { ...base, fixes: [], bytesRead: source.bytesRead };
  const payloads: GpmfPayload[] = (await readPayloads(source, samples)).map((bytes, k) => ({
    ctsMs: samples[k]!.ctsMs,
    durationMs: samples[k]!.durationMs,
    // A damaged payload reads as fewer streams: the clock and manual methods still apply.
    streams: streamsOf(bytes),
  }));
  const { fixes: all, clock } = fixesOf(payloads);
  const fixes = withoutStaleTimes(all.sort((a, b) => a.videoMs - b.videoMs));
  return { ...base, fixes, ...(fixes.length > 0 && clock ? { gpsClock: clock } : {}), bytesRead: source.bytesRead };
}

/**
 * Identifies a file without reading it whole: SHA-256 (hex) of its first and last MiB (they
 * overlap in a small file) and its size as 8 bytes big-endian.
 */
export async function fingerprint(source: ByteSource): Promise<string> {
  const MIB = 1024 * 1024;
  const headLength = Math.min(MIB, source.size);
  const tailLength = Math.min(MIB, source.size);
  const [head, tail] = await Promise.all([
    source.read(0, headLength),
    source.read(source.size - tailLength, tailLength),
  ]);
  const bytes = new Uint8Array(head.length + tail.length + 8);
  bytes.set(head, 0);
  bytes.set(tail, head.length);
  new DataView(bytes.buffer).setBigUint64(head.length + tail.length, BigInt(source.size));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
