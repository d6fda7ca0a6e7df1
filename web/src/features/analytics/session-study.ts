// What "Where you lose time" and the coaching tips show of a session: the track analysis (its
// default answer, or a lap against another lap when the address asks for one), the study chosen
// from it, and the corner study of the lap studied.
import { useDeferredValue, useMemo } from 'react';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import type { Units } from '#core/units.ts';
import { useCoaching, useTrackAnalysis, type CoachingChoice } from './analytics.api';
import { serverChoice, studyOf } from './study-choice';

export function useSessionStudy(props: {
  /** The session, once the map and charts have painted (null until then: nothing is asked). */
  trackSession: SessionAddress | null;
  /** The session, once its figures have painted and it has a GPS file. */
  coachingSession: SessionAddress | null;
  studiedLap: number | undefined;
  studyReference: number | 'ideal' | 'record' | undefined;
  units: Units;
}) {
  const { trackSession, coachingSession, studiedLap, studyReference, units } = props;
  // The session's default answer holds its laps and ideal lap: the study (study-choice.ts) is
  // chosen from it, and only a lap against another lap asks the server again.
  const baseQuery = useTrackAnalysis(trackSession);
  const study = useMemo(
    () => studyOf(baseQuery.data, { lap: studiedLap, reference: studyReference }),
    [baseQuery.data, studiedLap, studyReference],
  );
  const choice = serverChoice(study);
  const asksMore = choice.lap !== undefined || choice.reference !== undefined;
  const chosenQuery = useTrackAnalysis(asksMore ? trackSession : null, choice);
  const trackQuery = asksMore ? chosenQuery : baseQuery;
  const track = { ...trackQuery, data: useDeferredValue(trackQuery.data) };

  // The corner study of the lap studied (by default the best lap against the ideal lap): its tips
  // lead the page, its table and charts grow "Where you lose time".
  const coachingChoice = useMemo<CoachingChoice>(() => {
    const keyOf = (index: number | undefined) => {
      const l = track.data?.laps.find((x) => x.index === index);
      return l ? `${l.heat}${l.number}` : undefined;
    };
    if (study.automatic || !track.data) return {};
    if (study.mode === 'ideal') return { lap: keyOf(study.lap), ref: 'ideal' };
    if (study.mode === 'record') return { lap: keyOf(study.lap), ref: 'record' };
    const lap = keyOf(study.lap ?? track.data.comparison?.lap);
    const ref = keyOf(study.reference ?? track.data.comparison?.reference);
    return lap && ref && lap !== ref ? { lap, ref } : {};
  }, [study, track.data]);
  const coaching = useCoaching(coachingSession, coachingChoice, units);
  return { track, study, coaching };
}
