/**
 * The rider's picked video (one file, or the chapters of one recording) and its sync with a
 * session: read in a worker, matched to a kept sync by fingerprint, else synced from its
 * telemetry, else by the rider's marks; every sync made here is kept on the server.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import type { VideoSyncRecord } from '#core/contracts/videos.contract.ts';
import type { VideoTelemetry } from '#core/video/gpmf.ts';
import { manualSync, type SessionTrace, type VideoSync } from '#core/video/sync.ts';
import { errorMessage, useT } from '#web/i18n/messages.ts';
import { chapterClocks, chapterStarts, orderChapters } from './chapters';
import type { VideoReading } from './video-reading';
import { readVideos, saveSessionVideo, sessionVideosQuery } from './video.api';

export type Clock = Pick<VideoSync, 'offsetMs' | 'driftPpm'>;

export interface Chapter {
  file: File;
  url: string;
  durationMs: number;
  fingerprint: string | null;
  telemetry: VideoTelemetry | null;
  /** The kept sync's id for this file, reused when the sync changes. */
  savedId: string | null;
}

export interface Mark {
  /** On the recording's timeline (chapters end to end). */
  videoMs: number;
  sessionUtcMs: number;
}

export interface VideoSetSync {
  /** One clock per chapter. */
  clocks: Clock[];
  method: VideoSync['method'];
  errorMs: number;
  source: 'saved' | 'auto' | 'manual';
}

export interface VideoSet {
  chapters: Chapter[];
  order: 'one' | 'chapters' | 'by-name';
  sync: VideoSetSync | null;
  marks: Mark[];
  save: { state: 'idle' | 'saving' | 'saved' } | { state: 'failed'; reason: string };
}

/**
 * HEVC this browser cannot play (Chromium without a platform decoder; Safari plays it): said, not a
 * black player.
 */
const unplayableHevc = (codec: string) =>
  /^(hvc1|hev1)/i.test(codec) && document.createElement('video').canPlayType(`video/mp4; codecs="${codec}"`) === '';
const VIDEO_NAME = /\.(mp4|mov|m4v|webm|mkv)$/i;

/** The duration the browser reads from the file's index (a video element that loads metadata only). */
function mediaDurationMs(url: string): Promise<number> {
  return new Promise((resolve) => {
    const v = document.createElement('video');
    v.preload = 'metadata';
    v.muted = true;
    v.onloadedmetadata = () => resolve(Number.isFinite(v.duration) ? v.duration * 1000 : 0);
    v.onerror = () => resolve(0);
    v.src = url;
  });
}

/** A timeline clock from chapter k's own clock. */
function timelineFrom(clock: Clock, startMs: number): Clock {
  return { offsetMs: clock.offsetMs - startMs * (1 + clock.driftPpm / 1e6), driftPpm: clock.driftPpm };
}

/** The sync read from the files themselves: chapters read on their own where they could be, the others placed after them. */
function autoSync(readings: VideoReading[], chapters: Chapter[]): VideoSetSync | null {
  const autoAt = readings.findIndex((r) => r.sync);
  if (autoAt < 0) return null;
  const starts = chapterStarts(chapters.map((c) => c.durationMs));
  const auto = readings[autoAt]!.sync!;
  const derived = chapterClocks(
    timelineFrom(auto, starts[autoAt]!),
    chapters.map((c) => c.durationMs),
  );
  return {
    clocks: readings.map((r, k) => (r.sync ? { offsetMs: r.sync.offsetMs, driftPpm: r.sync.driftPpm } : derived[k]!)),
    method: auto.method,
    errorMs: Math.max(...readings.flatMap((r) => (r.sync ? [r.sync.errorMs] : []))),
    source: 'auto',
  };
}

export function useVideoSet(session: SessionAddress, trace: () => SessionTrace | null) {
  const t = useT();
  const queryClient = useQueryClient();
  const [set, setSet] = useState<VideoSet | null>(null);
  const [reading, setReading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const urls = useRef<string[]>([]);
  useEffect(() => () => urls.current.forEach((u) => URL.revokeObjectURL(u)), []);
  /** The chapters read without a trace, still to be synced when it comes. */
  const awaitingTrace = useRef<Chapter[] | null>(null);
  const latest = useRef(set);
  latest.current = set;

  const keep = useCallback(
    async (chapters: Chapter[], sync: VideoSetSync) => {
      const printed = chapters.filter((c) => c.fingerprint);
      if (printed.length === 0) {
        setSet((s) => s && { ...s, save: { state: 'failed', reason: t('video.notSavedNoPrint') } });
        return;
      }
      setSet((s) => s && { ...s, save: { state: 'saving' } });
      try {
        await Promise.all(
          chapters.map((c, k) => {
            if (!c.fingerprint) return undefined;
            c.savedId ??= crypto.randomUUID();
            const video: VideoSyncRecord = {
              id: c.savedId,
              name: c.file.name.slice(0, 255),
              size: c.file.size,
              fingerprint: c.fingerprint,
              offsetMs: sync.clocks[k]!.offsetMs,
              driftPpm: sync.clocks[k]!.driftPpm,
              method: sync.method,
              errorMs: sync.errorMs,
            };
            return saveSessionVideo(session, video);
          }),
        );
        void queryClient.invalidateQueries({ queryKey: sessionVideosQuery(session).queryKey });
        setSet((s) => s && { ...s, save: { state: 'saved' } });
      } catch (err) {
        setSet((s) => s && { ...s, save: { state: 'failed', reason: errorMessage(t, err) } });
      }
    },
    [session, queryClient, t],
  );

  const pick = useCallback(
    async (picked: File[]) => {
      setProblem(null);
      const notVideo = picked.find((f) => !f.type.startsWith('video/') && !VIDEO_NAME.test(f.name));
      if (notVideo) return setProblem(t('video.notVideo', { name: notVideo.name }));
      const order = orderChapters(picked);
      if (order.kind === 'mixed') return setProblem(t('video.mixedRecordings'));
      urls.current.forEach((u) => URL.revokeObjectURL(u));
      urls.current = order.files.map((f) => URL.createObjectURL(f));
      setReading(true);
      try {
        const withTrace = trace();
        const [readings, kept] = await Promise.all([
          readVideos(order.files, withTrace),
          queryClient.fetchQuery(sessionVideosQuery(session)).catch(() => [] as VideoSyncRecord[]),
        ]);
        const chapters: Chapter[] = await Promise.all(
          order.files.map(async (file, k) => ({
            file,
            url: urls.current[k]!,
            durationMs: readings[k]!.telemetry?.durationMs || (await mediaDurationMs(urls.current[k]!)),
            fingerprint: readings[k]!.fingerprint,
            telemetry: readings[k]!.telemetry,
            savedId: kept.find((v) => v.fingerprint === readings[k]!.fingerprint)?.id ?? null,
          })),
        );
        if (chapters.some((c) => unplayableHevc(c.telemetry?.codec ?? ''))) setProblem(t('video.hevc'));
        const keptFor = chapters.map((c) => kept.find((v) => v.fingerprint === c.fingerprint));
        let sync: VideoSetSync | null = null;
        if (keptFor.every(Boolean)) {
          const first = keptFor[0]!;
          sync = {
            clocks: keptFor.map((v) => ({ offsetMs: v!.offsetMs, driftPpm: v!.driftPpm })),
            method: first.method,
            errorMs: first.errorMs,
            source: 'saved',
          };
        } else {
          sync = autoSync(readings, chapters);
        }
        // Read before the session's trace was there (the compare page offers the picker while the
        // GPS file downloads): synced again once it is.
        awaitingTrace.current = sync || withTrace ? null : chapters;
        setSet({
          chapters,
          order: order.kind,
          sync,
          marks: [],
          save: { state: sync?.source === 'saved' ? 'saved' : 'idle' },
        });
        if (sync?.source === 'auto') void keep(chapters, sync);
      } catch (err) {
        setProblem(errorMessage(t, err));
      } finally {
        setReading(false);
      }
    },
    [session, trace, queryClient, keep, t],
  );

  // The trace arrived after the pick: the files read again with it (in the worker: the index and
  // metadata only), unless the rider has synced them some other way meanwhile.
  useEffect(() => {
    const chapters = awaitingTrace.current;
    const now = chapters && set?.chapters === chapters && !set.sync ? trace() : null;
    if (!chapters || !now) return;
    awaitingTrace.current = null;
    setReading(true);
    readVideos(
      chapters.map((c) => c.file),
      now,
    )
      .then((readings) => {
        const sync = autoSync(readings, chapters);
        const current = latest.current;
        if (!sync || current?.chapters !== chapters || current.sync) return;
        setSet({ ...current, sync, save: { state: 'idle' } });
        void keep(chapters, sync);
      })
      .catch((err: unknown) => setProblem(errorMessage(t, err)))
      .finally(() => setReading(false));
  }, [set, trace, keep, t]);

  /** Marks a moment (on the recording's timeline); two marks set the drift too. A third replaces the nearer one. */
  const mark = useCallback(
    (m: Mark) => {
      if (!set) return;
      let marks = [...set.marks, m];
      if (marks.length > 2) {
        const [a, b] = set.marks;
        marks = Math.abs(a!.videoMs - m.videoMs) < Math.abs(b!.videoMs - m.videoMs) ? [b!, m] : [a!, m];
      }
      // Two marks closer than 10 s say nothing of drift: the last one alone sets the offset.
      if (marks.length === 2 && Math.abs(marks[0]!.videoMs - marks[1]!.videoMs) < 10_000) marks = [m];
      const timeline = manualSync(marks);
      const sync: VideoSetSync = {
        clocks: chapterClocks(
          timeline,
          set.chapters.map((c) => c.durationMs),
        ),
        method: 'manual',
        errorMs: timeline.errorMs,
        source: 'manual',
      };
      setSet({ ...set, marks, sync });
      void keep(set.chapters, sync);
    },
    [set, keep],
  );

  /** Moves the video against the data by `ms` (positive: the data later); kept once the taps stop. */
  const nudgeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(nudgeTimer.current), []);
  const nudge = useCallback(
    (ms: number) => {
      if (!set?.sync) return;
      const sync: VideoSetSync = {
        ...set.sync,
        clocks: set.sync.clocks.map((c) => ({ ...c, offsetMs: c.offsetMs + ms })),
        method: 'manual',
        source: 'manual',
      };
      setSet({ ...set, sync, marks: set.marks.map((m) => ({ ...m, sessionUtcMs: m.sessionUtcMs + ms })) });
      clearTimeout(nudgeTimer.current);
      nudgeTimer.current = setTimeout(() => void keep(set.chapters, sync), 1_000);
    },
    [set, keep],
  );

  const clearMarks = useCallback(() => set && setSet({ ...set, marks: [] }), [set]);

  return { set, reading, problem, setProblem, pick, mark, nudge, clearMarks };
}
