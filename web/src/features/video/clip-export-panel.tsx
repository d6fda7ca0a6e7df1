// The video panel's clip export: choose a lap or a stretch and a quality, and get an MP4 with the data
// drawn on it. The encoding runs in a worker (clip-worker.ts), so the page stays responsive; it can be cancelled.
import { useMemo, useState } from 'react';
import type { LapSegment } from '#core/analysis/gps-analysis.ts';
import type { GpsColumns } from '#core/formats/gps-columns.ts';
import { useT } from '#web/i18n/messages.ts';
import { speedIn } from '#core/units.ts';
import { decimal } from '#web/lib/format.ts';
import { useUnits } from '#web/lib/preferences.ts';
import { unitLabel } from '#web/lib/units-format.ts';
import { chapterAtSession } from './chapters';
import { clipOverlay } from './clip-data';
import type { ClipRequest } from './clip-encode';
import { useClipJob } from './clip-job';
import type { Chapter, Clock } from './video-set';

const lapName = (l: LapSegment) => `${l.heat}${l.lapCount}`;
const megabytes = (bytes: number) => `${decimal(bytes / 1e6, 1)} MB`;

/** Export a lap or a stretch of the video as an MP4 with the data drawn on it (in a worker), with progress and cancel. */
export function ClipExport(props: {
  chapters: Chapter[];
  clocks: Clock[];
  active: number;
  c: GpsColumns;
  utc: Float64Array;
  laps: readonly LapSegment[];
  best: LapSegment | null;
  reference: LapSegment;
}) {
  const t = useT();
  const units = useUnits();
  const { chapters, clocks, utc, laps } = props;
  const placed = useMemo(
    () => chapters.map((ch, k) => ({ clock: clocks[k]!, durationMs: ch.durationMs })),
    [chapters, clocks],
  );
  // The laps the video shows from start to end, each within one file.
  const lapsInVideo = useMemo(
    () =>
      laps.flatMap((l) => {
        const a = chapterAtSession(placed, utc[l.start]!);
        const b = chapterAtSession(placed, utc[l.end - 1]!);
        return a && b && a.index === b.index ? [{ lap: l, chapter: a.index, fromMs: a.videoMs, toMs: b.videoMs }] : [];
      }),
    [laps, placed, utc],
  );
  const [what, setWhat] = useState<string>('stretch');
  const [from, setFrom] = useState('0');
  const [to, setTo] = useState('10');
  const [height, setHeight] = useState(720);
  const job = useClipJob();
  const { state } = job;
  const start = () => {
    const chosen = lapsInVideo.find((x) => lapName(x.lap) === what);
    const chapter = chosen ? chosen.chapter : props.active;
    const durationMs = chapters[chapter]!.durationMs;
    const seconds = (s: string) => Number(s.replace(',', '.'));
    const fromMs = chosen ? chosen.fromMs : Math.max(0, seconds(from) * 1000);
    const toMs = chosen ? chosen.toMs : Math.min(durationMs, seconds(to) * 1000);
    if (!Number.isFinite(fromMs) || !Number.isFinite(toMs) || toMs <= fromMs) return job.say(t('video.exportEmpty'));
    if (typeof VideoEncoder === 'undefined') return job.say(t('video.exportNoEncoder'));
    const outlineLap = chosen?.lap ?? props.best ?? props.reference;
    const overlay = clipOverlay(props.c, utc, clocks[chapter]!, laps, props.best, outlineLap, fromMs, toMs);
    // The overlay's speed in the rider's units (stored km/h).
    overlay.speed.forEach((kmh, k) => (overlay.speed[k] = speedIn(kmh, units)));
    const request: ClipRequest = {
      file: chapters[chapter]!.file,
      overlay,
      // The worker names each lap: it gets the words with the {lap} slot still in them (clip-overlay.ts).
      labels: {
        lap: t('video.overlayLap', { lap: '{lap}' }),
        speed: unitLabel('speed', units),
        lean: t('video.overlayLean'),
        delta: t('video.overlayDelta'),
        leanSides: { left: t('format.leanLeft'), right: t('format.leanRight') },
      },
      height,
    };
    const name = `voltas-${chosen ? lapName(chosen.lap) : 'trecho'}-${height}p.mp4`;
    job.run(request, name, height);
  };

  return (
    <details className="video-export">
      <summary>{t('video.exportTitle')}</summary>
      <div className="video-export-form">
        <label>
          {t('video.exportWhat')}{' '}
          <select value={what} onChange={(e) => setWhat(e.currentTarget.value)} data-testid="clip-what">
            <option value="stretch">{t('video.exportStretch')}</option>
            {lapsInVideo.map((x) => (
              <option key={lapName(x.lap)} value={lapName(x.lap)}>
                {t('video.exportLap', { lap: lapName(x.lap) })}
              </option>
            ))}
          </select>
        </label>
        {what === 'stretch' && (
          <>
            <label>
              {t('video.exportFrom')}{' '}
              <input
                inputMode="decimal"
                size={5}
                value={from}
                onChange={(e) => setFrom(e.currentTarget.value)}
                data-testid="clip-from"
              />
            </label>
            <label>
              {t('video.exportTo')}{' '}
              <input
                inputMode="decimal"
                size={5}
                value={to}
                onChange={(e) => setTo(e.currentTarget.value)}
                data-testid="clip-to"
              />
            </label>
          </>
        )}
        <fieldset className="video-quality">
          <legend>{t('video.exportQuality')}</legend>
          {[720, 1080].map((h) => (
            <label key={h}>
              <input type="radio" name="clip-height" checked={height === h} onChange={() => setHeight(h)} /> {h}p
            </label>
          ))}
        </fieldset>
        {state.kind === 'working' ? (
          <div className="video-progress" role="status">
            <progress
              max={1}
              value={state.share}
              aria-label={t('video.exportProgress', { pct: String(Math.round(state.share * 100)) })}
            />{' '}
            {t('video.exportProgress', { pct: String(Math.round(state.share * 100)) })}{' '}
            <button type="button" className="btn btn-secondary btn-small" onClick={job.cancel}>
              {t('video.exportCancel')}
            </button>
          </div>
        ) : (
          <button type="button" className="btn btn-primary" onClick={start}>
            {t('video.exportStart')}
          </button>
        )}
      </div>
      {state.kind === 'done' && (
        <p role="status" data-testid="clip-done" data-seconds={state.seconds} data-work-ms={Math.round(state.workMs)}>
          {t('video.exportDone', { seconds: decimal(state.seconds, 1), size: megabytes(state.size) })}{' '}
          <a className="btn btn-secondary btn-small" href={state.url} download={state.name} data-testid="clip-download">
            {t('video.exportDownload')}
          </a>
        </p>
      )}
      {state.kind === 'message' && (
        <p className="notice" role="alert">
          {state.text}
        </p>
      )}
    </details>
  );
}
