import { describe, expect, it } from 'vitest';
import { manualSync, sessionToVideo } from '#core/video/sync.ts';
import { chapterAtSession, chapterClocks, chapterStarts, goProChapter, orderChapters } from './chapters';
import {
  clockDate,
  clockTime,
  coverageOf,
  sampleAtUtc,
  sampleForVideo,
  sampleNearest,
  sessionUtcTimes,
  sessionUtcTimesOf,
} from './video-time';

/** 10 Hz samples from 23:59:58 UTC across midnight. */
function columns(n: number, startOfDayMs = 86_398_000) {
  const timeMs = new Float64Array(n);
  for (let i = 0; i < n; i++) timeMs[i] = (startOfDayMs + i * 100) % 86_400_000;
  return { count: n, timeMs };
}

describe('cursor ↔ video time', () => {
  const c = columns(600);
  const utc = sessionUtcTimes(c, '15112026');
  const day = Date.UTC(2026, 10, 15);

  it('gives each sample its UTC time, carrying on past midnight', () => {
    expect(utc[0]).toBe(day + 86_398_000);
    expect(utc[20]).toBe(day + 86_400_000); // 00:00:00 of the 16th
    expect(utc[599]! - utc[0]!).toBe(59_900);
  });

  it('maps a sample to the video and back through a one-mark sync', () => {
    // The rider marked sample 100 at 12.5 s into the video.
    const sync = manualSync([{ videoMs: 12_500, sessionUtcMs: utc[100]! }]);
    expect(sessionToVideo(sync, utc[100]!)).toBe(12_500);
    expect(sessionToVideo(sync, utc[150]!)).toBe(17_500);
    expect(sampleForVideo(sync, utc, 17_500)).toBe(150);
    expect(sampleForVideo(sync, utc, 17_540)).toBe(150); // nearest fix
    expect(sampleForVideo(sync, utc, 17_560)).toBe(151);
    // Before the session's first fix by more than 2 s: off the trace.
    expect(sampleForVideo(sync, utc, 0)).toBeNull();
  });

  it('follows a camera clock that runs fast (two marks: offset and drift)', () => {
    // The camera's clock runs 400 ppm fast: 50 s of session are 50.02 s of video.
    const sync = manualSync([
      { videoMs: 1_000, sessionUtcMs: utc[0]! },
      { videoMs: 1_000 + 50_020, sessionUtcMs: utc[500]! },
    ]);
    expect(sync.driftPpm).toBeCloseTo(-399.84, 1);
    expect(sessionToVideo(sync, utc[250]!)).toBeCloseTo(1_000 + 25_010, 3);
    for (const i of [0, 123, 250, 499, 500]) expect(sampleForVideo(sync, utc, sessionToVideo(sync, utc[i]!))).toBe(i);
  });

  it('says how the video meets the session', () => {
    const session = { fromMs: utc[0]!, toMs: utc[599]! };
    const at = (fromMs: number, durationMs: number) => coverageOf({ fromMs, toMs: fromMs + durationMs }, session);
    expect(at(session.fromMs - 5_000, 120_000)).toBe('whole');
    expect(at(session.fromMs + 10_000, 10_000)).toBe('part');
    expect(at(session.toMs + 3_600_000, 60_000)).toBe('outside');
    expect(at(session.fromMs - 3 * 86_400_000, 60_000)).toBe('other-day');
  });

  it('finds the sample of a lap nearest a corner apex', () => {
    const lat = Float64Array.from({ length: 10 }, (_, i) => -23.7 + i * 0.0001);
    const lon = new Float64Array(10).fill(-46.69);
    expect(sampleNearest({ lat, lon }, { start: 2, end: 8 }, { lat: -23.7 + 5.2 * 0.0001, lon: -46.69 })).toBe(5);
    // Only within the lap.
    expect(sampleNearest({ lat, lon }, { start: 2, end: 4 }, { lat: -23.7 + 9 * 0.0001, lon: -46.69 })).toBe(3);
  });

  it('has nothing to say of an empty trace', () => {
    expect(sampleAtUtc(new Float64Array(0), 0)).toBeNull();
    expect(sessionUtcTimes({ count: 0, timeMs: new Float64Array(0) }, '15112026').length).toBe(0);
  });
});

describe('chapters', () => {
  it('reads GoPro names, old and new', () => {
    expect(goProChapter('GOPR0123.MP4')).toEqual({ recording: '0123', chapter: 1 });
    expect(goProChapter('GP010123.MP4')).toEqual({ recording: '0123', chapter: 2 });
    expect(goProChapter('gh030456.mp4')).toEqual({ recording: '0456', chapter: 3 });
    expect(goProChapter('GX010456.MP4')).toEqual({ recording: '0456', chapter: 1 });
    expect(goProChapter('max-heromode.mp4')).toBeNull();
    expect(goProChapter('GL010456.LRV')).toBeNull();
  });

  it('orders a recording by chapter, refuses mixed recordings, plays other names by name', () => {
    const f = (name: string) => ({ name });
    expect(orderChapters([f('GH030456.MP4'), f('GH010456.MP4'), f('GH020456.MP4')])).toEqual({
      kind: 'chapters',
      files: [f('GH010456.MP4'), f('GH020456.MP4'), f('GH030456.MP4')],
    });
    expect(orderChapters([f('GP010123.MP4'), f('GOPR0123.MP4')])).toEqual({
      kind: 'chapters',
      files: [f('GOPR0123.MP4'), f('GP010123.MP4')],
    });
    expect(orderChapters([f('GH010456.MP4'), f('GH010457.MP4')])).toEqual({ kind: 'mixed' });
    expect(orderChapters([f('b.mp4'), f('a.mp4')])).toEqual({ kind: 'by-name', files: [f('a.mp4'), f('b.mp4')] });
    expect(orderChapters([f('a.mp4')])).toEqual({ kind: 'one', files: [f('a.mp4')] });
  });

  it('places each chapter on the timeline', () => {
    expect(chapterStarts([511_000, 511_000, 120_000])).toEqual([0, 511_000, 1_022_000]);
  });

  it('gives each chapter its clock from one sync of the recording, and finds the chapter of a session time', () => {
    const durations = [511_000, 511_000, 120_000];
    // One mark in the second chapter, 30 s in: the timeline's 541 s is 10:00:00 UTC.
    const tenOClock = Date.UTC(2026, 10, 15, 10);
    const timeline = manualSync([{ videoMs: 511_000 + 30_000, sessionUtcMs: tenOClock }]);
    const clocks = chapterClocks(timeline, durations);
    const chapters = clocks.map((clock, k) => ({ clock, durationMs: durations[k]! }));
    expect(chapterAtSession(chapters, tenOClock)).toEqual({ index: 1, videoMs: 30_000 });
    expect(chapterAtSession(chapters, tenOClock - 31_000)).toEqual({ index: 0, videoMs: 510_000 });
    expect(chapterAtSession(chapters, tenOClock + 600_000)).toEqual({ index: 2, videoMs: 119_000 }); // timeline 1,141 s, the third chapter from 1,022 s
    expect(chapterAtSession(chapters, tenOClock + 3_600_000)).toBeNull();
  });
});

describe('the times a rider reads are the track’s clock, whatever the browser’s zone (issue 59)', () => {
  it('Grattan in August is UTC-4: 16:00:00 UTC reads 12:00:00; Tianma 23:30 UTC reads 07:30 the next day', () => {
    const grattan = { lat: 43.096, lon: -85.384 };
    const tianma = { lat: 31.079, lon: 121.115 };
    expect(clockTime(Date.UTC(2024, 7, 10, 16), grattan)).toBe('12:00:00');
    expect(clockTime(Date.UTC(2025, 11, 30, 23, 30, 5), tianma)).toBe('07:30:05');
    expect(clockDate(Date.UTC(2025, 11, 30, 23, 30), tianma)).toBe('31/12/2025');
  });
});

describe('an imported session’s date is the local day where it was ridden (issue 59)', () => {
  it('9:00 at Phillip Island on 15 Jan: its samples are of 22:00 UTC on the 14th; a device’s date is the UTC day', () => {
    const c = {
      count: 2,
      timeMs: Float64Array.of(79_200_000, 79_200_100),
      lat: Float64Array.of(-38.5, -38.5),
      lon: Float64Array.of(145.23, 145.23),
    };
    const imported = sessionUtcTimesOf(c, { device: 'imp0123456789ab', date: '15012024' });
    expect(new Date(imported[0]!).toISOString()).toBe('2024-01-14T22:00:00.000Z');
    expect(imported[1]! - imported[0]!).toBe(100);
    const device = sessionUtcTimesOf(c, { device: 'VOLTAS-0001', date: '15012024' });
    expect(new Date(device[0]!).toISOString()).toBe('2024-01-15T22:00:00.000Z');
  });
});
