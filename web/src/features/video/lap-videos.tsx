// The compare page's videos: the two laps' videos side by side, one following the other by position on
// the track (a friend's lap shows its figures instead). Reached through video-entry.ts, so its code loads
// only when the page shows it.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { analyzeGps } from '#core/analysis/gps-analysis.ts';
import type { CompareResponse } from '#core/contracts/progress.contract.ts';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { formatDdmmyyyy } from '#core/formats/dates.ts';
import { useT } from '#web/i18n/messages.ts';
import { formatGap } from '#web/lib/format.ts';
import { sessionToVideo, videoToSession, type SessionTrace } from '#core/video/sync.ts';
import { hasLean, lean } from '#web/lib/format.ts';
import { useUnits } from '#web/lib/preferences.ts';
import { formatDistance, formatSpeed } from '#web/lib/units-format.ts';
import { useGpsColumnsFor } from '#web/lib/gps-columns.ts';
import type { LapVideosProps } from '#web/lib/video-slot.ts';
import { chapterAtSession } from './chapters';
import { followRate, fractionAt, lapTrack, onGrid, utcAtFraction, type LapTrack } from './lap-align';
import { VideoPicker, VideoReadState } from './video-picker';
import { SummaryItem } from '#web/components/ui/summary-item.tsx';
import { VideoPlayer } from './video-player';
import { useVideoSet } from './video-set';
import { sessionTrace, sessionUtcTimesOf } from './video-time';

type Lap = CompareResponse['lap'];

/** A side's video, as the pair needs it: its element, and the share of the lap it shows. */
interface SideHandle {
  video: HTMLVideoElement;
  fractionAt: (videoMs: number) => number | null;
  videoMsAt: (fraction: number) => number | null;
}

/**
 * Two laps, each with the rider's synced video, side by side on the compare page: one leads, the
 * other follows it by position along the track (its pace eased, or a seek after a jump), with the
 * gap live. A friend's shared lap has no video: their figures at the same place stand beside.
 */
export function LapVideos({ data, onPosition, seek }: LapVideosProps) {
  const t = useT();
  const units = useUnits();
  const handles = useRef<(SideHandle | null)[]>([null, null]);
  const [positionM, setPositionM] = useState<number | null>(null);
  const lastPosition = useRef<number | null>(null);
  const onPositionRef = useRef(onPosition);
  onPositionRef.current = onPosition;
  const sides: Lap[] = [data.lap, data.reference];
  const lengthM = data.track.lengthM;

  const registers = useMemo(
    () =>
      [0, 1].map((k) => (h: SideHandle | null) => {
        handles.current[k] = h;
      }),
    [],
  );
  const leader = () => handles.current[0] ?? handles.current[1];
  const follower = () => (handles.current[0] ? handles.current[1] : null);

  /** The leader showed `videoMs`: the position it stands for, the follower brought there. */
  const onLeaderTime = useCallback(
    (side: number, videoMs: number) => {
      const lead = leader();
      if (!lead || handles.current[side] !== lead) return;
      const f = lead.fractionAt(videoMs);
      const position = f === null ? null : f * lengthM;
      if (
        position === null
          ? lastPosition.current !== null
          : lastPosition.current === null || Math.abs(position - lastPosition.current) >= 2
      ) {
        lastPosition.current = position;
        setPositionM(position);
        onPositionRef.current(position);
      }
      const follow = follower();
      if (!follow || f === null) return;
      const target = follow.videoMsAt(f);
      if (target === null) return;
      const fv = follow.video;
      if (lead.video.paused) {
        if (!fv.paused) fv.pause();
        if (Math.abs(fv.currentTime * 1000 - target) > 40) fv.currentTime = target / 1000;
        return;
      }
      const move = followRate(target - fv.currentTime * 1000);
      if ('seekTo' in move) fv.currentTime = target / 1000;
      else fv.playbackRate = move.rate;
      if (fv.paused) void fv.play().catch(() => {});
    },
    [lengthM],
  );

  const seq = seek?.seq;
  useEffect(() => {
    if (!seek) return;
    const f = seek.positionM / lengthM;
    for (const h of handles.current) {
      const ms = h?.videoMsAt(f);
      if (h && ms !== null && ms !== undefined) h.video.currentTime = ms / 1000;
    }
    // A new click only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [seq]);

  const [playing, setPlaying] = useState(false);
  const toggle = () => {
    const lead = leader();
    if (!lead) return;
    if (lead.video.paused) {
      void lead.video.play().catch(() => {});
      setPlaying(true);
    } else {
      lead.video.pause();
      follower()?.video.pause();
      setPlaying(false);
    }
  };

  const delta = positionM === null ? null : onGrid(data.x, data.delta, positionM);
  const friend = data.reference.device === null;
  return (
    <section className="lap-videos" aria-labelledby="lap-videos-title" data-testid="lap-videos">
      <h2 id="lap-videos-title">{t('video.compareTitle')}</h2>
      <p className="muted">{t('video.compareHelp')}</p>
      <div className="lap-videos-row">
        {sides.map((lap, k) =>
          lap.device === null ? (
            <FriendFigures key={k} data={data} positionM={positionM} />
          ) : (
            <LapVideoSide
              key={k}
              lap={lap}
              session={{ device: lap.device, track: lap.track, date: lap.date }}
              register={registers[k]!}
              onTime={(ms) => onLeaderTime(k, ms)}
              testId={`lap-video-${k}`}
            />
          ),
        )}
      </div>
      <p className="lap-videos-live" aria-live="off">
        <button type="button" className="btn btn-primary" onClick={toggle} data-testid="play-both">
          {playing ? t('video.pauseBoth') : friend ? t('video.playOne') : t('video.playBoth')}
        </button>
        <span data-testid="lap-videos-position">
          {positionM === null ? '' : t('preferences.position', { distance: formatDistance(positionM, units) })}
        </span>{' '}
        <strong data-testid="lap-videos-gap">{delta === null ? '' : `${t('video.gap')} ${formatGap(delta)}`}</strong>
      </p>
    </section>
  );
}

function useLapTrack(
  session: SessionAddress,
  lap: Lap,
): { track: LapTrack | null; utc: Float64Array | null; trace: () => SessionTrace | null; pending: boolean } {
  const gps = useGpsColumnsFor(session);
  const c = gps.data;
  const { device, date } = session;
  const utc = useMemo(() => (c ? sessionUtcTimesOf(c, { device, date }) : null), [c, device, date]);
  const track = useMemo(() => {
    if (!c || !utc) return null;
    const seg = analyzeGps(c).laps.find((l) => l.heat === lap.heat && l.lapCount === lap.number);
    return seg ? lapTrack(c, seg, utc) : null;
  }, [c, utc, lap.heat, lap.number]);
  const trace = useCallback(() => (c && utc ? sessionTrace(c, utc) : null), [c, utc]);
  return { track, utc, trace, pending: gps.isPending };
}

function LapVideoSide(props: {
  lap: Lap;
  session: SessionAddress;
  register: (h: SideHandle | null) => void;
  onTime: (ms: number) => void;
  testId: string;
}) {
  const t = useT();
  const { track, trace, pending } = useLapTrack(props.session, props.lap);
  const video = useVideoSet(props.session, trace);
  const el = useRef<HTMLVideoElement>(null);
  const { set } = video;
  const name = `${props.lap.heat}${props.lap.number}`;
  // The chapter that shows the lap's start (a lap is played within one file).
  const placed = useMemo(
    () =>
      set?.sync ? set.chapters.map((ch, k) => ({ clock: set.sync!.clocks[k]!, durationMs: ch.durationMs })) : null,
    [set],
  );
  const atStart = placed && track ? chapterAtSession(placed, track.startUtcMs) : null;
  const chapter = atStart?.index ?? 0;
  const clock = placed?.[chapter]?.clock ?? null;
  // Synced, yet the lap's start is on none of the files (a video of another day, or another stretch of the session).
  const lapOffVideo = Boolean(placed && track && !atStart);
  const { register } = props;

  useEffect(() => {
    const video = el.current;
    if (!video || !clock || !track) return register(null);
    register({
      video,
      fractionAt: (ms) => fractionAt(track, videoToSession(clock, ms)),
      videoMsAt: (f) => {
        const ms = sessionToVideo(clock, utcAtFraction(track, f));
        return ms >= 0 && ms <= (set?.chapters[chapter]?.durationMs ?? 0) ? ms : null;
      },
    });
    return () => register(null);
  }, [clock, track, set, chapter, register]);

  // Once synced, the video waits at the lap's start, when the video shows it: a start past the
  // file's end would leave it on its last frame, and the rider's mark would be taken there.
  const startMs = atStart?.videoMs ?? null;
  useEffect(() => {
    if (el.current && startMs !== null) el.current.currentTime = startMs / 1000;
  }, [startMs]);

  return (
    <div className="lap-video" data-testid={props.testId}>
      <h3>
        {t('video.playerOf', { lap: name })} · {formatDdmmyyyy(props.lap.date)}
      </h3>
      {!pending && !track && <p className="notice">{t('video.noGpsForLap')}</p>}
      <VideoPicker
        again={Boolean(set)}
        onPick={(files) => void video.pick(files)}
        testId={`${props.testId}-file`}
        dropOnPage={false}
      />
      <VideoReadState reading={video.reading} problem={video.problem} />
      {set?.chapters[chapter] && (
        <>
          <VideoPlayer
            url={set.chapters[chapter].url}
            label={t('video.playerOf', { lap: name })}
            videoRef={el}
            onTime={props.onTime}
            testId={`${props.testId}-player`}
          />
          {set.sync ? (
            <p className="video-synced" data-testid={`${props.testId}-synced`}>
              <span aria-hidden="true">✓ </span>
              {t(`video.synced.${set.sync.method}` as const, { ms: Math.round(set.sync.errorMs) })}
            </p>
          ) : (
            <p className="notice">{t('video.notSynced')}</p>
          )}
          {lapOffVideo && (
            <p className="notice" data-testid={`${props.testId}-off`}>
              {t('video.lapOffVideo')}
            </p>
          )}
          {track && (
            <button
              type="button"
              className={set.sync ? 'btn btn-secondary btn-small' : 'btn btn-primary'}
              onClick={() => {
                const at = el.current;
                if (!at) return;
                // On the recording's timeline: the chapters before this one come first.
                const before = set.chapters.slice(0, chapter).reduce((sum, ch) => sum + ch.durationMs, 0);
                video.mark({ videoMs: before + at.currentTime * 1000, sessionUtcMs: track.startUtcMs });
              }}
            >
              {t('video.markLapStart')}
            </button>
          )}
        </>
      )}
    </div>
  );
}

/** A friend's shared lap: no video of theirs, their figures at the place the rider's video shows. */
function FriendFigures({ data, positionM }: { data: CompareResponse; positionM: number | null }) {
  const t = useT();
  const units = useUnits();
  const speed = positionM === null ? null : onGrid(data.x, data.speed[1], positionM);
  const roll = positionM === null || !hasLean([data.lean[1]]) ? null : onGrid(data.x, data.lean[1], positionM);
  return (
    <div className="lap-video lap-video-friend" data-testid="lap-video-friend">
      <h3>{t('video.compareFriend')}</h3>
      <dl className="summary">
        <SummaryItem label={t('video.speed')}>{speed === null ? '—' : formatSpeed(speed, units)}</SummaryItem>
        <SummaryItem label={t('video.lean')}>{roll === null ? '—' : lean(roll)}</SummaryItem>
      </dl>
    </div>
  );
}
