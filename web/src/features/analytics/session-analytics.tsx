// One session on the analytics page: its figures, the map, the charts, the corners and the laps, with
// the choices the address holds.
import { memo, useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { formatDdmmyyyy } from '#core/formats/dates.ts';
import { errorMessage, useT } from '#web/i18n/messages.ts';
import { useUnits } from '#web/lib/preferences.ts';
import { unitLabel } from '#web/lib/units-format.ts';
import { leanRecorded } from '#web/lib/format.ts';
import { sessionPath, useLaps } from '#web/lib/sessions-api.ts';
import { useAnalysis, useGpsColumns } from './analytics.api';
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { bestOf } from '#core/laps/session-laps.ts';
import { useAnalyticsAddress } from './analytics-address';
import { lapKey, sampleAtDistance } from './chart-data';
import { LapCharts } from './lap-charts';
import { shownLaps } from './shown-laps';
import { SessionCharts } from './session-charts';
import { GpsPending, LapTable, SessionFigures } from './session-figures';
import { TrackMap } from './track-map';
import type { MapColour } from './track-map-drawing';
import { focusOfCorner, type CornerFocus } from './corner-focus';
import { WhereTimeGoes, whereTimeGoesHeight } from './where-time-goes';
import { CoachingTips, type CoachedCorner } from './coaching';
import { useSessionStudy } from './session-study';
import { ColourToggle } from './colour-toggle';
import { useLapCursor } from './lap-cursor';
import { useAfterPaint } from '#web/lib/after-paint.ts';
import { WhenNear } from '#web/components/ui/when-near.tsx';
import type { SessionVideoSlot } from '#web/lib/video-slot.ts';
import { Headline } from './analytics-headline';

/**
 * One session: its figures, the map, the charts, the corners and the laps, with the choices the
 * address holds. Each part that an answer feeds is memoized, so an answer re-renders what it
 * changes; what the GPS file and the track analysis feed renders in slices (deferred values).
 */
export function SessionAnalytics({ session, Video }: { session: SessionAddress; Video: SessionVideoSlot | undefined }) {
  const t = useT();
  const units = useUnits();
  const axisX = t('preferences.axisDistance', { unit: unitLabel('distance', units) });
  const address = useAnalyticsAddress();
  const analysis = useAnalysis(session);
  const laps = useLaps(session);
  // The figures paint first (a text answer of a few kB), the lap table after that frame. The GPS
  // file (half a megabyte) is asked for now, after the page's frame has painted: it downloads and
  // decodes in a worker, and all drawn from it comes a frame at a time.
  const figuresPainted = useAfterPaint(Boolean(analysis.data) || analysis.isError);
  const gps = useGpsColumns(session);
  // A file without lean has no lean to colour the map by: speed, whatever the address says.
  const leanKnown = analysis.data ? leanRecorded(analysis.data) : true;
  const colour: MapColour = leanKnown && address.lean ? 'lean' : 'speed';
  const [focus, setFocus] = useState<CornerFocus | null>(null);
  const xRange = useMemo<[number, number] | null>(() => (focus ? [focus.fromM, focus.toM] : null), [focus]);
  // What is drawn from the GPS file and the track analysis renders in slices (a deferred value), so a
  // phone keeps answering taps while it is built.
  const c = useDeferredValue(gps.data);
  const segments = useMemo(() => analysis.data?.laps ?? [], [analysis.data]);
  // The track analysis (the one lap list) comes after the first paint (asked for below); until then the lap.six says.
  const [listed, setListed] = useState<TrackAnalysisResponse['laps']>();
  const shown = useMemo(() => shownLaps(segments, laps.data, listed), [segments, laps.data, listed]);
  const bestKey = useMemo(() => {
    const entries = [...shown];
    const best = bestOf(entries.map(([, l]) => l));
    return best < 0 ? null : entries[best]![0];
  }, [shown]);
  const chosenKeys = useMemo(() => {
    const keys = address.laps ?? (bestKey ? [bestKey] : []);
    return new Set(keys.filter((k) => segments.some((s) => lapKey(s) === k)));
  }, [address.laps, bestKey, segments]);
  const chosen = useMemo(() => segments.filter((s) => chosenKeys.has(lapKey(s))), [segments, chosenKeys]);
  const best = segments.find((s) => lapKey(s) === bestKey);
  const reference = best ?? chosen[0] ?? segments[0];
  const mapLaps = useMemo(() => (chosen.length || !reference ? chosen : [reference]), [chosen, reference]);

  // The handlers below keep their identity between renders: the parts of the page are memoized,
  // and render again only when what they show changes.
  const { setLaps } = address;
  const toggleLap = useCallback(
    (key: string) => {
      const next = new Set(chosenKeys);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      setLaps([...next]);
    },
    [chosenKeys, setLaps],
  );

  // The lap charts compute their points themselves, each when the rider scrolls to it.
  const hasCharts = Boolean(c && reference && chosen.length);

  // The map and the lap charts (each drawn in its own frame, uplot-chart.tsx) come first; what
  // lies below them (progression and whole-session charts) a frame after.
  const restShown = useAfterPaint(hasCharts);
  // Corners, cards and the ideal lap are asked for once the map and the lap charts have painted:
  // their answer (and its reading) would otherwise compete with the first paint on a phone.
  const afterFirstPaint = restShown || (Boolean(c) && !hasCharts);
  const trackSession = !gps.data?.count || !afterFirstPaint ? null : session;
  const { studiedLap, studyReference } = address;
  const { track, study, coaching } = useSessionStudy({
    trackSession,
    // Asked for once the figures have painted, beside the GPS file rather than after it: the tips lead
    // the page, and a phone on slow 4G would otherwise wait for half a megabyte before them.
    coachingSession: figuresPainted && !gps.isError ? session : null,
    studiedLap,
    studyReference,
    units,
  });
  useEffect(() => setListed(track.data?.laps), [track.data]);
  const shareLaps = useMemo(
    () => (track.data?.laps ?? []).filter((l) => l.complete).map((l) => `${l.heat}${l.number}`),
    [track.data],
  );

  const { cursorIndex, setCursorIndex, cursorDistance, onChartCursor, seek, pickIndex, onChartPick } = useLapCursor(
    c,
    segments,
    reference,
  );
  // A tip or a corner of the study: the map and the charts zoom to it, the video plays the lap
  // studied from its approach, and the map comes into view.
  const showCorner = useCallback(
    (corner: CoachedCorner) => {
      setFocus(focusOfCorner(corner));
      const lap = segments.find((s) => lapKey(s) === coaching.data?.lap);
      if (c && lap) pickIndex(sampleAtDistance(c, lap, Math.max(0, corner.startM - 100)));
      showMap();
    },
    [segments, coaching.data, c, pickIndex],
  );
  // A corner card of "Where you lose time" zooms the map and the charts above it: they come into view.
  const focusCorner = useCallback((next: CornerFocus | null) => {
    setFocus(next);
    if (next) showMap();
  }, []);
  const exportHref = useCallback(
    (format: string, lap?: { heat: string; lapCount: number }) => {
      // The CSV's speeds in the rider's units (GPX has its own: metres per second).
      const query = new URLSearchParams({
        ...(lap ? { heat: lap.heat, lap: String(lap.lapCount) } : {}),
        ...(format === 'csv' && units === 'imperial' ? { units } : {}),
      }).toString();
      return `${sessionPath(session)}/export/${format}${query ? `?${query}` : ''}`;
    },
    [session, units],
  );

  // A row is 48 px or more; a long table scrolls in its box of 560 px (styles.css, .figures-scroll).
  const lapTableHeight = Math.min(48 * ((analysis.data?.laps.length ?? 0) + 1), 560);

  return (
    <>
      {analysis.isPending && (
        <div className="loading-inline" role="status">
          <progress aria-label={t('analytics.loadingFigures')} /> {t('analytics.loadingFigures')}
        </div>
      )}
      {(gps.isError || analysis.isError) &&
        ((gps.error as { status?: number } | null)?.status === 404 ? (
          <p className="empty-state">{t('analytics.noGps')}</p>
        ) : (
          <p className="alert alert-error" role="alert">
            {errorMessage(t, gps.error ?? analysis.error)}
          </p>
        ))}
      {c && c.count === 0 && <p className="empty-state">{t('analytics.noGps')}</p>}
      {!(c && c.count === 0) && analysis.data && (
        <section aria-label={`${session.track} ${formatDdmmyyyy(session.date)}`}>
          <Headline
            bestKey={bestKey}
            bestSeconds={bestKey ? (shown.get(bestKey)?.seconds ?? null) : null}
            idealSeconds={track.data ? track.data.idealLapSeconds : track.isError ? null : undefined}
          />
          <CoachingTips
            data={coaching.data}
            coming={!coaching.isError && !gps.isError && !(c && c.count === 0)}
            onCorner={showCorner}
          />
          {figuresPainted ? (
            // The laps lead (their boxes choose what the map and the charts below draw); a full day is a
            // hundred rows, drawn as the rider scrolls towards them, their room kept meanwhile.
            <WhenNear height={lapTableHeight} label={t('analytics.lapsTable')}>
              <LapTable
                session={session}
                units={units}
                analysis={analysis.data}
                shown={shown}
                chosen={chosenKeys}
                bestKey={bestKey}
                onToggle={toggleLap}
                exportHref={exportHref}
              />
            </WhenNear>
          ) : (
            // Its room from the first frame: what lies below (the sections drawn when near) stays below.
            <div style={{ height: lapTableHeight }} />
          )}
          {!c && !gps.isError && <GpsPending session={session} />}
          {c && (
            <div className="analytics-grid" id="analytics-map">
              <div className="analytics-side">
                {Video && reference && restShown && (
                  <Video
                    session={session}
                    c={c}
                    laps={segments}
                    reference={reference}
                    best={best ?? null}
                    corners={track.data?.corners ?? []}
                    cursorIndex={cursorIndex}
                    onCursorIndex={setCursorIndex}
                    seek={seek}
                  />
                )}
                {leanKnown && <ColourToggle colour={colour} onChange={(next) => address.setLean(next === 'lean')} />}
                {reference && (
                  <MemoTrackMap
                    units={units}
                    c={c}
                    laps={mapLaps}
                    reference={reference}
                    colour={colour}
                    cursorIndex={cursorIndex}
                    onHoverIndex={setCursorIndex}
                    onPickIndex={Video ? pickIndex : undefined}
                    corners={track.data?.corners}
                    focus={focus}
                  />
                )}
              </div>
              <div>
                {!hasCharts && <p className="muted">{t('analytics.pickOne')}</p>}
                {c && reference && hasCharts && (
                  <MemoLapCharts
                    c={c}
                    chosen={chosen}
                    reference={reference}
                    bestKey={bestKey}
                    units={units}
                    xLabel={axisX}
                    onCursorX={onChartCursor}
                    onPickX={Video ? onChartPick : undefined}
                    cursorX={cursorDistance}
                    xRange={xRange}
                    lean={leanKnown}
                  />
                )}
              </div>
            </div>
          )}
          {/* Below the map and the charts on a phone, with most of the page's elements (its pickers
              and tables): laid out as the rider scrolls near it. The corner focus lives here, so the
              map and the charts keep it whether or not the section is drawn. */}
          <WhenNear height={whereTimeGoesHeight(track.data)} label={t('tracks.whereTitle')}>
            <WhereTimeGoes
              units={units}
              data={track.data}
              study={study}
              session={session}
              pending={track.isPending}
              fetching={track.isPlaceholderData && track.isFetching}
              error={track.error}
              onChoose={address.chooseStudy}
              focus={focus}
              onFocus={focusCorner}
              coaching={coaching.data}
              onCoachCorner={showCorner}
            />
          </WhenNear>
          {/* The session's finer figures (top speed, lean, sample rate) and its exports, below the answer. */}
          <SessionFigures
            analysis={analysis.data}
            session={session}
            shareLaps={shareLaps}
            exportHref={exportHref}
            shown={shown}
          />
          {c && hasCharts && restShown && (
            <WhenNear height={2 * 260} label={t('analytics.chartSession')}>
              <MemoSessionCharts c={c} segments={segments} shown={shown} units={units} />
            </WhenNear>
          )}
        </section>
      )}
    </>
  );
}

/** Brings the map and the charts (what a corner changes) into view, at once when the rider asks for less motion. */
function showMap() {
  const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  document.getElementById('analytics-map')?.scrollIntoView({ block: 'start', behavior: still ? 'auto' : 'smooth' });
}

const MemoTrackMap = memo(TrackMap);
const MemoLapCharts = memo(LapCharts);
const MemoSessionCharts = memo(SessionCharts);
