// "Where you lose time" on the analytics page: a chosen lap against another lap or the ideal lap, as
// cards for the biggest losses and a corner table; tapping a card or a corner zooms the map and charts to it.
import { memo } from 'react';
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import { errorMessage, useT } from '#web/i18n/messages.ts';
import type { Units } from '#core/units.ts';
import { lossesToIdeal, type Study } from './study-choice';
import { TrackIdentity } from './track-identity';
import { Loading } from '#web/components/ui/query-status.tsx';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import type { CoachingResponse } from '#core/contracts/tracks.contract.ts';
import { CornerTable } from '#web/components/corner-table.tsx';
import { CornerStudy, type CoachedCorner } from './coaching';
import { type CornerFocus, focusOf } from './corner-focus';
import type { StudyChoice } from './analytics-address';
import { IdealLapSummary, IdealTable } from './ideal-lap-parts';
import { IdealLossCards, LapLossCards } from './loss-card-list';
import { StudyPickers } from './study-pickers';

/**
 * About the height (px) the section takes on a phone, kept for it until it is drawn (`WhenNear`):
 * the heading, the ideal lap, the track, the pickers and the cards, then a row a corner.
 */
export function whereTimeGoesHeight(data: TrackAnalysisResponse | undefined): number {
  if (!data) return 40;
  // The corner study below: a second row a corner (its table), then a profile and a g-g plot, one
  // above the other on a phone.
  return 700 + 140 * data.corners.length + 620;
}

/**
 * "Onde você perde tempo": the studied lap against its reference (by default the best lap
 * against the ideal lap, study-choice.ts), the three pieces of the lap where the most time went
 * as cards in plain Portuguese, and a corner table; tapping a card or a corner zooms the map and
 * the charts to it.
 */
export const WhereTimeGoes = memo(function WhereTimeGoes(props: {
  data: TrackAnalysisResponse | undefined;
  study: Study;
  session: SessionAddress | null;
  pending: boolean;
  /** Another pair of laps is on its way: the current answer stays until it comes. */
  fetching?: boolean;
  error: unknown;
  onChoose: (choice: StudyChoice) => void;
  focus: CornerFocus | null;
  onFocus: (focus: CornerFocus | null) => void;
  units?: Units;
  /** The corner study of the lap studied (issue 62), and what a corner of it shows when tapped. */
  coaching?: CoachingResponse | undefined;
  onCoachCorner?: (corner: CoachedCorner) => void;
}) {
  const t = useT();
  const units = props.units ?? 'metric';
  const { data, study } = props;
  if (props.error) {
    return (
      <section className="where-time-goes" aria-labelledby="where-title">
        <h2 id="where-title">{t('tracks.whereTitle')}</h2>
        <p className="notice">{errorMessage(t, props.error)}</p>
      </section>
    );
  }
  if (!data) {
    return props.pending ? <Loading>{t('tracks.loading')}</Loading> : null;
  }
  const ideal = study.mode === 'ideal' && data.idealLapSeconds !== null ? lossesToIdeal(data, study.lap) : null;
  // Against the record (another session's lap), the corner study below is the comparison.
  const record = study.mode === 'record';
  const comparison = ideal || record ? null : data.comparison;
  const studied = ideal || record ? study.lap : comparison?.lap;
  const focused = props.focus?.segment ?? null;
  const zoom = (segment: string) => props.onFocus(focused === segment ? null : focusOf(data, segment));
  const busy = Boolean(props.fetching);

  return (
    <section className="where-time-goes" aria-labelledby="where-title" aria-busy={busy}>
      <h2 id="where-title">{t('tracks.whereTitle')}</h2>
      <IdealLapSummary data={data} />
      {props.session && <TrackIdentity session={props.session} track={data.track} />}
      {studied !== undefined && (comparison || ideal || record) && (
        <StudyPickers
          data={data}
          study={study}
          ideal={Boolean(ideal)}
          record={record}
          coaching={props.coaching}
          comparison={comparison}
          studied={studied}
          busy={busy}
          onChoose={props.onChoose}
        />
      )}
      {ideal && <IdealLossCards data={data} losses={ideal} focused={focused} onZoom={zoom} />}
      {comparison && comparison.lap !== comparison.reference && (
        <LapLossCards comparison={comparison} units={units} focused={focused} onZoom={zoom} />
      )}
      {props.focus && (
        <p className="actions-row">
          <span>{t('tracks.zoomed', { n: props.focus.segment.slice(1) })}</span>
          <button type="button" className="btn btn-secondary btn-small" onClick={() => props.onFocus(null)}>
            {t('tracks.showAll')}
          </button>
        </p>
      )}
      {ideal && data.idealLap.length > 0 && <IdealTable data={data} losses={ideal} focused={focused} onZoom={zoom} />}
      {props.coaching && props.onCoachCorner && (
        <CornerStudy
          data={props.coaching}
          units={units}
          focused={focused}
          range={props.focus ? [props.focus.fromM, props.focus.toM] : null}
          onCorner={props.onCoachCorner}
        />
      )}
      {comparison && data.corners.length > 0 && !props.coaching && (
        <CornerTable comparison={comparison} units={units} testId="corner-table" focused={focused} onZoom={zoom} />
      )}
    </section>
  );
});
