/**
 * Several files of one recording played as one video. GoPro splits a recording into chapters of
 * about 4 GB (or 8.5 min at high bit rates): GOPR1234.MP4, GP011234.MP4, … on HERO5 and older;
 * GH011234.MP4, GH021234.MP4 (GX… in HEVC) from HERO6 on. Pure; no DOM.
 */
import { sessionToVideo, videoToSession, type VideoSync } from '#core/video/sync.ts';

type Clock = Pick<VideoSync, 'offsetMs' | 'driftPpm'>;

/** A GoPro file name's recording number and chapter (1-based), or null for any other name. */
export function goProChapter(name: string): { recording: string; chapter: number } | null {
  const base = name.split(/[\\/]/).pop()!.toUpperCase();
  const old = /^GOPR(\d{4})\.MP4$/.exec(base);
  if (old) return { recording: old[1]!, chapter: 1 };
  const oldNext = /^GP(\d{2})(\d{4})\.MP4$/.exec(base);
  if (oldNext) return { recording: oldNext[2]!, chapter: Number(oldNext[1]) + 1 };
  const hero6 = /^G[HX](\d{2})(\d{4})\.MP4$/.exec(base);
  if (hero6) return { recording: hero6[2]!, chapter: Number(hero6[1]) };
  return null;
}

export type ChapterOrder<T> =
  | { kind: 'one'; files: [T] }
  | { kind: 'chapters'; files: T[] }
  /** Names that say nothing of an order: played in the order of their names. */
  | { kind: 'by-name'; files: T[] }
  | { kind: 'mixed' };

/** The files the rider picked, in playing order; files of different GoPro recordings are refused. */
export function orderChapters<T extends { name: string }>(files: readonly T[]): ChapterOrder<T> {
  if (files.length === 1) return { kind: 'one', files: [files[0]!] };
  const named = files.map((f) => ({ f, g: goProChapter(f.name) }));
  if (named.every((n) => n.g)) {
    if (new Set(named.map((n) => n.g!.recording)).size > 1) return { kind: 'mixed' };
    return { kind: 'chapters', files: named.sort((a, b) => a.g!.chapter - b.g!.chapter).map((n) => n.f) };
  }
  return { kind: 'by-name', files: [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
}

/** Where each chapter starts on the recording's timeline (ms). */
export function chapterStarts(durationsMs: readonly number[]): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const d of durationsMs) {
    starts.push(at);
    at += d;
  }
  return starts;
}

/**
 * Each chapter's own clock from the recording's (one sync made on the timeline, as manual marks
 * across chapters are): chapter k's video ms 0 is the timeline's start_k.
 */
export function chapterClocks(timeline: Clock, durationsMs: readonly number[]): Clock[] {
  return chapterStarts(durationsMs).map((start) => ({
    offsetMs: videoToSession(timeline, start),
    driftPpm: timeline.driftPpm,
  }));
}

/** The chapter showing a session time, and where in it; null when no chapter does. */
export function chapterAtSession(
  chapters: readonly { clock: Clock; durationMs: number }[],
  sessionUtcMs: number,
): { index: number; videoMs: number } | null {
  for (let k = 0; k < chapters.length; k++) {
    const videoMs = sessionToVideo(chapters[k]!.clock, sessionUtcMs);
    if (videoMs >= 0 && videoMs <= chapters[k]!.durationMs) return { index: k, videoMs };
  }
  return null;
}
