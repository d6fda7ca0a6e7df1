// The analytics page's video panel: a video from the rider's own device (read in the browser, never uploaded)
// synced to the session and sharing the cursor with the map and charts; manual sync and clip export beside it.
// Reached through video-entry.ts, so its code loads only when the page shows it.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LapSegment } from '#core/analysis/gps-analysis.ts';
import { formatDdmmyyyy } from '#core/formats/dates.ts';
import { useT } from '#web/i18n/messages.ts';
import { videoToSession } from '#core/video/sync.ts';
import type { SessionVideoProps } from '#web/lib/video-slot.ts';
import { chapterAtSession, chapterStarts } from './chapters';
import { ClipExport } from './clip-export-panel';
import { VideoPicker, VideoReadState } from './video-picker';
import { VideoPlayer } from './video-player';
import { useVideoSet, type VideoSet } from './video-set';
import {
  clockDate,
  clockTime,
  coverageOf,
  sampleForVideo,
  sampleNearest,
  sessionTrace,
  sessionUtcTimesOf,
  type Place,
} from './video-time';

const lapName = (l: LapSegment) => `${l.heat}${l.lapCount}`;

/**
 * The "Vídeo" panel of a session's analysis: the rider's own file played beside the map and the
 * charts with their one cursor. Playing moves the cursor; a click on a chart or the map (the
 * page's `seek`), a lap or a corner moves the video.
 */
export function VideoSyncRecord(props: SessionVideoProps) {
  const t = useT();
  const { c, session, laps } = props;
  const { device, date } = session;
  const utc = useMemo(() => sessionUtcTimesOf(c, { device, date }), [c, device, date]);
  const trace = useCallback(() => sessionTrace(c, utc), [c, utc]);
  const place = useMemo(() => ({ lat: c.lat[0] ?? 0, lon: c.lon[0] ?? 0 }), [c]);
  const video = useVideoSet(session, trace);
  const { set } = video;
  const sync = set?.sync ?? null;
  const el = useRef<HTMLVideoElement>(null);
  const [active, setActive] = useState(0);
  const pendingSeek = useRef<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [cannotPlay, setCannotPlay] = useState(false);
  const lastSample = useRef<number | null>(null);
  const onCursor = useRef(props.onCursorIndex);
  onCursor.current = props.onCursorIndex;

  useEffect(() => {
    setActive(0);
    setCannotPlay(false);
    setNotice(null);
  }, [set?.chapters]);

  const chapters = useMemo(() => set?.chapters ?? [], [set?.chapters]);
  const starts = useMemo(() => chapterStarts(chapters.map((ch) => ch.durationMs)), [chapters]);
  const placed = useMemo(
    () => (sync ? chapters.map((ch, k) => ({ clock: sync.clocks[k]!, durationMs: ch.durationMs })) : null),
    [chapters, sync],
  );

  const onTime = useCallback(
    (videoMs: number) => {
      const player = el.current;
      if (player) player.dataset.videoMs = String(Math.round(videoMs));
      if (!sync) return;
      const i = sampleForVideo(sync.clocks[active]!, utc, videoMs);
      if (player) player.dataset.sample = i === null ? '' : String(i);
      if (i !== lastSample.current) {
        lastSample.current = i;
        onCursor.current(i);
      }
    },
    [sync, active, utc],
  );

  /** The video to the moment the session was at `utcMs`, in whichever chapter shows it. */
  const goTo = useCallback(
    (utcMs: number) => {
      if (!placed || !set) return;
      const hit = chapterAtSession(placed, utcMs);
      if (!hit) {
        const last = placed.length - 1;
        setNotice(
          t('video.outsideVideo', {
            from: clockTime(videoToSession(placed[0]!.clock, 0), place),
            to: clockTime(videoToSession(placed[last]!.clock, placed[last]!.durationMs), place),
          }),
        );
        return;
      }
      setNotice(null);
      if (hit.index !== active) {
        pendingSeek.current = hit.videoMs;
        setActive(hit.index);
      } else if (el.current) el.current.currentTime = hit.videoMs / 1000;
    },
    [placed, set, active, t, place],
  );

  const seekSeq = props.seek?.seq;
  useEffect(() => {
    if (props.seek) goTo(utc[props.seek.index]!);
    // Only a new click seeks (goTo changes with every chapter switch).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [seekSeq]);

  const lapAt = (i: number | null) => (i === null ? undefined : laps.find((l) => i >= l.start && i < l.end));
  const currentLap = lapAt(props.cursorIndex) ?? props.reference;

  return (
    <section className={`video-panel${set ? ' video-on' : ''}`} aria-labelledby="video-title" data-testid="video-panel">
      <h2 id="video-title">{t('video.title')}</h2>
      {!set && <p className="muted">{t('video.intro')}</p>}
      <VideoPicker again={Boolean(set)} onPick={(files) => void video.pick(files)} />
      <VideoReadState reading={video.reading} problem={video.problem} />
      {set && chapters[active] && (
        <>
          <VideoPlayer
            url={chapters[active].url}
            label={t('video.player')}
            videoRef={el}
            onTime={onTime}
            onLoaded={(player) => {
              // A codec the browser cannot show (HEVC in Chromium) loads as sound without a picture.
              if (player.videoWidth === 0) setCannotPlay(true);
              if (pendingSeek.current !== null) {
                player.currentTime = pendingSeek.current / 1000;
                pendingSeek.current = null;
                void player.play().catch(() => {});
              }
            }}
            onEnded={() => {
              if (active < chapters.length - 1) {
                pendingSeek.current = 0;
                setActive(active + 1);
              }
            }}
            onError={() => setCannotPlay(true)}
          />
          {/* HEVC read from the telemetry is said once, above (video-set.ts). */}
          {cannotPlay && video.problem !== t('video.hevc') && (
            <p className="alert alert-error" role="alert">
              {t('video.cannotPlay')}
            </p>
          )}
          <SyncStatus set={set} utc={utc} place={place} sessionDate={session.date} />
          {sync && (
            <div className="video-jumps">
              <JumpTo
                label={t('video.jumpLap')}
                testId="video-jump-lap"
                places={laps.map((l) => [lapName(l), () => goTo(utc[l.start]!)])}
              />
              {props.corners.length > 0 && (
                <JumpTo
                  label={t('video.jumpCorner')}
                  testId="video-jump-corner"
                  places={props.corners.map((k) => [
                    `T${k.number}`,
                    () => goTo(utc[sampleNearest(c, currentLap, k.apex)]!),
                  ])}
                />
              )}
            </div>
          )}
          {notice && (
            <p className="notice" role="status">
              {notice}
            </p>
          )}
          <ManualSync
            set={set}
            laps={laps}
            utc={utc}
            place={place}
            nearLap={currentLap}
            onMark={(lap) =>
              el.current &&
              video.mark({ videoMs: starts[active]! + el.current.currentTime * 1000, sessionUtcMs: utc[lap.start]! })
            }
            onNudge={video.nudge}
            onClear={video.clearMarks}
          />
          {sync && (
            <ClipExport
              chapters={chapters}
              clocks={sync.clocks}
              active={active}
              c={c}
              utc={utc}
              laps={laps}
              best={props.best}
              reference={props.reference}
            />
          )}
        </>
      )}
    </section>
  );
}

/** How the video is synced, how much of the session it covers, its chapters, and whether the sync was kept. */
function SyncStatus({
  set,
  utc,
  place,
  sessionDate,
}: {
  set: VideoSet;
  utc: Float64Array;
  place: Place;
  sessionDate: string;
}) {
  const t = useT();
  const { sync, chapters } = set;
  const printed = chapters.some((ch) => ch.telemetry);
  let coverage: string | null = null;
  if (sync && utc.length) {
    const last = chapters.length - 1;
    const span = {
      fromMs: videoToSession(sync.clocks[0]!, 0),
      toMs: videoToSession(sync.clocks[last]!, chapters[last]!.durationMs),
    };
    const session = { fromMs: utc[0]!, toMs: utc[utc.length - 1]! };
    const kind = coverageOf(span, session);
    const times = {
      from: clockTime(span.fromMs, place),
      to: clockTime(span.toMs, place),
      sessionFrom: clockTime(session.fromMs, place),
      sessionTo: clockTime(session.toMs, place),
    };
    const date = clockDate(span.fromMs, place);
    coverage =
      kind === 'whole'
        ? t('video.coverage.whole')
        : kind === 'part'
          ? t('video.coverage.part', times)
          : kind === 'outside'
            ? t('video.coverage.outside', times)
            : t('video.coverage.otherDay', { date, sessionDate: formatDdmmyyyy(sessionDate) });
  }
  return (
    <div className="video-sync" data-testid="video-sync-status">
      {sync ? (
        <p className="video-synced" data-testid="video-sync" data-method={sync.method}>
          <span aria-hidden="true">✓ </span>
          {t(`video.synced.${sync.method}` as const, { ms: Math.round(sync.errorMs) })}
        </p>
      ) : (
        <p className="notice">{printed ? t('video.notSynced') : t('video.noTelemetry')}</p>
      )}
      {sync?.source === 'saved' && <p className="muted">{t('video.savedSync')}</p>}
      {coverage && <p className="muted">{coverage}</p>}
      {set.order === 'chapters' && <p className="muted">{t('video.chapters', { count: chapters.length })}</p>}
      {set.order === 'by-name' && <p className="muted">{t('video.severalFiles', { count: chapters.length })}</p>}
      {sync && set.save.state === 'saved' && sync.source !== 'saved' && <p className="muted">{t('video.saved')}</p>}
      {set.save.state === 'failed' && <p className="muted">{t('video.notSaved', { reason: set.save.reason })}</p>}
    </div>
  );
}

/** The rider marks the line's crossing while watching: one mark sets the offset, a second (later) the drift too. */
function ManualSync(props: {
  set: VideoSet;
  laps: readonly LapSegment[];
  utc: Float64Array;
  place: Place;
  nearLap: LapSegment;
  onMark: (lap: LapSegment) => void;
  onNudge: (ms: number) => void;
  onClear: () => void;
}) {
  const t = useT();
  const [chosen, setChosen] = useState<string>(() => lapName(props.nearLap));
  const lap = props.laps.find((l) => lapName(l) === chosen) ?? props.laps[0];
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1).replace('.', ',')} s`;
  return (
    <details className="video-manual" open={!props.set.sync}>
      <summary>{t('video.manualTitle')}</summary>
      <p className="muted">{t('video.manualHelp')}</p>
      <div className="video-mark">
        <label>
          {t('video.crossing')}{' '}
          <select value={chosen} onChange={(e) => setChosen(e.currentTarget.value)} data-testid="video-crossing">
            {props.laps.map((l) => (
              <option key={lapName(l)} value={lapName(l)}>
                {t('video.crossingOption', { lap: lapName(l), time: clockTime(props.utc[l.start]!, props.place) })}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn btn-primary" disabled={!lap} onClick={() => lap && props.onMark(lap)}>
          {t('video.markNow')}
        </button>
      </div>
      {props.set.marks.length > 0 && (
        <p className="muted" data-testid="video-marks">
          {t('video.marks', {
            count: props.set.marks.length,
            list: props.set.marks.map((m) => seconds(m.videoMs)).join(', '),
          })}{' '}
          <button type="button" className="btn btn-link" onClick={props.onClear}>
            {t('video.clearMarks')}
          </button>
        </p>
      )}
      {props.set.sync && (
        <p className="video-nudge">
          <span>{t('video.nudge')}:</span>
          <button
            type="button"
            className="btn btn-secondary btn-small"
            aria-label={t('video.nudgeEarlier')}
            onClick={() => props.onNudge(-100)}
          >
            {t('video.earlier')}
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-small"
            aria-label={t('video.nudgeLater')}
            onClick={() => props.onNudge(100)}
          >
            {t('video.later')}
          </button>
        </p>
      )}
    </details>
  );
}

/** A dropdown that moves the video to the place chosen, then shows 'choose' again. */
function JumpTo(props: { label: string; testId: string; places: [name: string, go: () => void][] }) {
  const t = useT();
  return (
    <label>
      {props.label}{' '}
      <select
        value=""
        data-testid={props.testId}
        onChange={(e) => props.places.find(([name]) => name === e.currentTarget.value)?.[1]()}
      >
        <option value="">{t('video.choose')}</option>
        {props.places.map(([name]) => (
          <option key={name}>{name}</option>
        ))}
      </select>
    </label>
  );
}
