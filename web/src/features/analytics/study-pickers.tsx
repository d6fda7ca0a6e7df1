// The pickers of "Where you lose time": the lap studied and its reference (another lap or the ideal
// lap), why these laps when nobody chose them, and the gap over the whole lap.
import type { CoachingResponse, TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import { Loading } from '#web/components/ui/query-status.tsx';
import { useT } from '#web/i18n/messages.ts';
import { formatGap } from '#web/lib/format.ts';
import type { StudyChoice } from './analytics-address';
import { IDEAL, LapSelect, RECORD } from './lap-select';
import { lapNameOf, type Study } from './study-choice';

export function StudyPickers(props: {
  data: TrackAnalysisResponse;
  study: Study;
  /** Studied against the ideal lap (else against `comparison`'s reference). */
  ideal: boolean;
  /** Studied against the rider's record at the track (another session's lap): the corner study is the comparison. */
  record: boolean;
  coaching?: CoachingResponse | undefined;
  comparison: TrackAnalysisResponse['comparison'];
  studied: number;
  busy: boolean;
  onChoose: (choice: StudyChoice) => void;
}) {
  const t = useT();
  const { data, study, ideal, record, comparison, studied, busy } = props;
  const reference = ideal ? IDEAL : record ? RECORD : comparison!.reference;
  const complete = data.laps.filter((l) => l.complete && l.kind === 'flying');
  const nameOf = (index: number | null | undefined) => lapNameOf(data.laps, index);
  const studiedLap = data.laps.find((l) => l.index === studied);
  let explain: string | null = null;
  if (ideal)
    explain = t(study.lap === data.bestLap ? 'tracks.idealExplainBest' : 'tracks.idealExplain', {
      lap: nameOf(study.lap),
    });
  else if (study.automatic && comparison && comparison.lap !== comparison.reference) {
    explain = t('tracks.recentExplain', { lap: nameOf(comparison.lap), best: nameOf(comparison.reference) });
  }
  return (
    <div className="lap-choice">
      <LapSelect
        label={t('tracks.chooseLap')}
        laps={complete}
        best={data.bestLap}
        value={studied}
        busy={busy}
        onChange={(lap) => props.onChoose({ lap: lap as number, reference })}
      />
      <LapSelect
        label={t('tracks.chooseReference')}
        laps={complete}
        best={data.bestLap}
        value={reference}
        offerIdeal={data.idealLapSeconds !== null}
        offerRecord
        busy={busy}
        onChange={(reference) => props.onChoose({ lap: studied, reference })}
      />
      {explain && (
        <p className="study-explain" data-testid="study-explain">
          {explain}
        </p>
      )}
      <p className="muted" data-testid="total-delta">
        {ideal && studiedLap
          ? t('tracks.totalDelta', {
              delta: formatGap((studiedLap.seconds ?? studiedLap.gpsSeconds) - data.idealLapSeconds!),
            })
          : record
            ? props.coaching?.ref === 'record' &&
              t('tracks.totalDelta', { delta: formatGap(props.coaching.deltaSeconds) })
            : comparison!.lap === comparison!.reference
              ? t('tracks.sameLap')
              : t('tracks.totalDelta', { delta: formatGap(comparison!.deltaSeconds) })}
      </p>
      {busy && <Loading>{t('tracks.loading')}</Loading>}
    </div>
  );
}
