// The analytics page (/analytics): pick a session, then study it on a map, charts against distance,
// "where you lose time" and a lap table. Its choices live in the address; its parts load in turn (the
// figures first, the corners once the map and charts have painted) so a phone paints its first screen quickly.
import { memo, useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatDdmmyyyy } from '#core/formats/dates.ts';
import { formatLapTime } from '#core/formats/lap-six.ts';
import { SummaryItem } from '#web/components/ui/summary-item.tsx';
import { SessionSelector, selectableDevices } from '#web/components/session-selector.tsx';
import { Page } from '#web/components/ui/page.tsx';
import { errorMessage, useT } from '#web/i18n/messages.ts';
import { useMe } from '#web/lib/session.ts';
import { useUnits } from '#web/lib/preferences.ts';
import { unitLabel } from '#web/lib/units-format.ts';
import { leanRecorded } from '#web/lib/format.ts';
import { sessionPath, useLaps } from '#web/lib/sessions-api.ts';
import { useAnalysis, useGpsColumns, useTrackAnalysis } from './analytics.api';
import { addressFromQuery, addressToQuery } from '#core/contracts/session-paths.ts';
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { lapKey, sampleAtDistance } from './chart-data';
import { LapCharts } from './lap-charts';
import { shownLaps } from './shown-laps';
import { SessionCharts } from './session-charts';
import { GpsPending, LapTable, SessionFigures } from './session-figures';
import { TrackMap, type MapColour } from './track-map';
import { focusOfCorner, WhereTimeGoes, whereTimeGoesHeight, type CornerFocus } from './where-time-goes';
import { CoachingTips, useCoaching, type CoachedCorner, type CoachingChoice } from './coaching';
import { serverChoice, studyOf } from './study-choice';
import { useAfterPaint } from '#web/lib/after-paint.ts';
import { WhenNear } from '#web/components/ui/when-near.tsx';
import { deviceName } from '#web/lib/device-name.ts';
import type { SessionVideoSlot } from '#web/lib/video-slot.ts';

/**
 * The spec's analytics screen, made whole: hardware, track and date live in the address (reload
 * and share work); what the spec only logged is shown; charts against distance with the best lap
 * as reference; a map coloured by speed or lean sharing the cursor with the charts. `Video`: the
 * rider's video beside them (the video feature's, handed in by the app), on the same cursor.
 */
export function AnalyticsPage({ Video }: { Video?: SessionVideoSlot } = {}) {
  const t = useT();
  const me = useMe().data!;
  const devices = selectableDevices(me);
  const [params, setParams] = useSearchParams();
  const session = useMemo(() => addressFromQuery(params), [params]);
  const device = params.get('hw');
  const foreign = device !== null && !devices.includes(device) && device !== me.demoDevice && !me.roles.admin;
  // The frame (header, selector) renders once: each answer that arrives re-renders the session's
  // part below it, not the whole page.
  return (
    <Page
      wide
      title={
        <>
          {t('analytics.title')} <span className="hw-id">{deviceName(t, session?.device ?? devices[0]!)}</span>
        </>
      }
      menu={[
        { to: '/user', label: t('menu.home') },
        { to: '/enroll', label: t('menu.meusDadosTitle') },
        { to: '/laps', label: t('menu.laps') },
      ]}
    >
      {foreign && (
        <p className="alert alert-error" role="alert">
          {t('analytics.foreignHardware')}
        </p>
      )}
      <SessionSelector
        devices={devices}
        initial={session ?? {}}
        loaded={session}
        onLoad={(s) => setParams({ ...addressToQuery(s), ...(params.get('cor') ? { cor: params.get('cor')! } : {}) })}
      />
      {!session && <p className="muted prompt">{t('analytics.selectPrompt')}</p>}
      {session && !foreign && <SessionAnalytics session={session} Video={Video} />}
    </Page>
  );
}

/**
 * One session: its figures, the map, the charts, the corners and the laps, with the choices the
 * address holds. Each part that an answer feeds is memoized, so an answer re-renders what it
 * changes; what the GPS file and the track analysis feed renders in slices (deferred values).
 */
function SessionAnalytics({ session, Video }: { session: SessionAddress; Video: SessionVideoSlot | undefined }) {
  const t = useT();
  const units = useUnits();
  const axisX = t('preferences.axisDistance', { unit: unitLabel('distance', units) });
  const [params, setParams] = useSearchParams();
  const analysis = useAnalysis(session);
  const laps = useLaps(session);
  // The figures paint first (a text answer of a few kB), the lap table after that frame. The GPS
  // file (half a megabyte) is asked for now, after the page's frame has painted: it downloads and
  // decodes in a worker, and all drawn from it comes a frame at a time.
  const figuresPainted = useAfterPaint(Boolean(analysis.data) || analysis.isError);
  const gps = useGpsColumns(session);
  // A file without lean has no lean to colour the map by: speed, whatever the address says.
  const leanKnown = analysis.data ? leanRecorded(analysis.data) : true;
  const colour: MapColour = leanKnown && params.get('cor') === 'inclinacao' ? 'lean' : 'speed';
  const [cursorIndex, setCursorIndex] = useState<number | null>(null);
  const numberParam = (key: string) =>
    params.get(key) && Number.isInteger(Number(params.get(key))) ? Number(params.get(key)) : undefined;
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
    let best: string | null = null;
    for (const [key, l] of shown)
      if (l.kind === 'flying' && l.seconds !== null && (best === null || l.seconds < shown.get(best)!.seconds!))
        best = key;
    return best;
  }, [shown]);
  const chosenKeys = useMemo(() => {
    const raw = params.get('voltas');
    const keys = raw ? raw.split(',').filter(Boolean) : bestKey ? [bestKey] : [];
    return new Set(keys.filter((k) => segments.some((s) => lapKey(s) === k)));
  }, [params, bestKey, segments]);
  const chosen = useMemo(() => segments.filter((s) => chosenKeys.has(lapKey(s))), [segments, chosenKeys]);
  const best = segments.find((s) => lapKey(s) === bestKey);
  const reference = best ?? chosen[0] ?? segments[0];
  const mapLaps = useMemo(() => (chosen.length || !reference ? chosen : [reference]), [chosen, reference]);

  const setParam = useCallback(
    (key: string, value: string | null) => {
      const next = new URLSearchParams(params);
      if (value === null) next.delete(key);
      else next.set(key, value);
      setParams(next, { replace: true });
    },
    [params, setParams],
  );
  // The handlers below keep their identity between renders: the parts of the page are memoized,
  // and render again only when what they show changes.
  const toggleLap = useCallback(
    (key: string) => {
      const next = new Set(chosenKeys);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      setParam('voltas', [...next].join(','));
    },
    [chosenKeys, setParam],
  );
  const chooseStudy = useCallback(
    (choice: { lap?: number; reference?: number | 'ideal' }) => {
      const next = new URLSearchParams(params);
      if (choice.lap !== undefined) next.set('estudada', String(choice.lap));
      if (choice.reference !== undefined) next.set('referencia', String(choice.reference));
      setParams(next, { replace: true });
    },
    [params, setParams],
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
  // The session's default answer holds its laps and ideal lap: the study (study-choice.ts) is
  // chosen from it, and only a lap against another lap asks the server again.
  const baseQuery = useTrackAnalysis(trackSession);
  const studiedLap = numberParam('estudada');
  const studyReference = params.get('referencia') === 'ideal' ? 'ideal' : numberParam('referencia');
  const study = useMemo(
    () => studyOf(baseQuery.data, { lap: studiedLap, reference: studyReference }),
    [baseQuery.data, studiedLap, studyReference],
  );
  const choice = serverChoice(study);
  const asksMore = choice.lap !== undefined || choice.reference !== undefined;
  const chosenQuery = useTrackAnalysis(asksMore ? trackSession : null, choice);
  const trackQuery = asksMore ? chosenQuery : baseQuery;
  const track = { ...trackQuery, data: useDeferredValue(trackQuery.data) };
  useEffect(() => setListed(track.data?.laps), [track.data]);
  const shareLaps = useMemo(
    () => (track.data?.laps ?? []).filter((l) => l.complete).map((l) => `${l.heat}${l.number}`),
    [track.data],
  );

  // The corner study of the lap studied (by default the best lap against the ideal lap): its tips
  // lead the page, its table and charts grow "Where you lose time".
  const coachingChoice = useMemo<CoachingChoice>(() => {
    const keyOf = (index: number | undefined) => {
      const l = track.data?.laps.find((x) => x.index === index);
      return l ? `${l.heat}${l.number}` : undefined;
    };
    if (study.automatic || !track.data) return {};
    if (study.mode === 'ideal') return { lap: keyOf(study.lap), ref: 'ideal' };
    const lap = keyOf(study.lap ?? track.data.comparison?.lap);
    const ref = keyOf(study.reference ?? track.data.comparison?.reference);
    return lap && ref && lap !== ref ? { lap, ref } : {};
  }, [study, track.data]);
  // Asked for once the figures have painted, beside the GPS file rather than after it: the tips lead
  // the page, and a phone on slow 4G would otherwise wait for half a megabyte before them.
  const coaching = useCoaching(figuresPainted && !gps.isError ? session : null, coachingChoice, units);

  // The lap the cursor is on (the video may play any of them), else the reference.
  const cursorLap =
    (cursorIndex !== null && segments.find((s) => cursorIndex >= s.start && cursorIndex < s.end)) || reference;
  const cursorDistance =
    c && cursorLap && cursorIndex !== null && cursorIndex >= cursorLap.start && cursorIndex < cursorLap.end
      ? c.meterSum[cursorIndex]! - c.meterSum[cursorLap.start]!
      : null;
  const onChartCursor = useCallback(
    (x: number | null) => setCursorIndex(x === null || !c || !reference ? null : sampleAtDistance(c, reference, x)),
    [c, reference],
  );
  // A click on a chart or the map: the video (when there is one) goes there, on the lap it plays.
  const [seek, setSeek] = useState<{ index: number; seq: number } | null>(null);
  const pickIndex = useCallback((index: number) => setSeek((s) => ({ index, seq: (s?.seq ?? 0) + 1 })), []);
  const onChartPick = useCallback(
    (x: number) => c && cursorLap && pickIndex(sampleAtDistance(c, cursorLap, x)),
    [c, cursorLap, pickIndex],
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
                {leanKnown && (
                  <fieldset className="colour-toggle">
                    <legend>{t('analytics.colour')}</legend>
                    <label>
                      <input
                        type="radio"
                        name="cor"
                        checked={colour === 'speed'}
                        onChange={() => setParam('cor', null)}
                      />{' '}
                      {t('analytics.colourSpeed')}
                    </label>
                    <label>
                      <input
                        type="radio"
                        name="cor"
                        checked={colour === 'lean'}
                        onChange={() => setParam('cor', 'inclinacao')}
                      />{' '}
                      {t('analytics.colourLean')}
                    </label>
                  </fieldset>
                )}
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
              onChoose={chooseStudy}
              focus={focus}
              onFocus={focusCorner}
              coaching={coaching.data}
              onCoachCorner={showCorner}
            />
          </WhenNear>
          {/* The session's finer figures (top speed, lean, sample rate) and its exports, below the answer. */}
          <SessionFigures analysis={analysis.data} session={session} shareLaps={shareLaps} exportHref={exportHref} />
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

/** The answer first: the best lap and the ideal lap (the track analysis builds it: '…' until it has). */
const Headline = memo(function Headline(props: {
  bestKey: string | null;
  bestSeconds: number | null;
  /** undefined while the track analysis is on its way, null when there is none. */
  idealSeconds: number | null | undefined;
}) {
  const t = useT();
  const time = (seconds: number | null | undefined) =>
    seconds === undefined ? '…' : seconds === null ? '—' : formatLapTime(Math.round(seconds * 1000));
  return (
    <dl className="summary summary-answer" data-testid="analytics-answer">
      <SummaryItem kind="best" label={t('laps.bestLap')} hint={props.bestKey ?? undefined} data-testid="answer-best">
        {time(props.bestSeconds)}
      </SummaryItem>
      <SummaryItem kind="ideal" label={t('tracks.idealLap')} data-testid="answer-ideal">
        {time(props.idealSeconds)}
      </SummaryItem>
    </dl>
  );
});

const MemoTrackMap = memo(TrackMap);
const MemoLapCharts = memo(LapCharts);
const MemoSessionCharts = memo(SessionCharts);
