// A select of the session's complete laps (and the ideal lap, the rider's record), for the lap studied and its reference.
import { formatLapTime } from '#core/formats/lap-six.ts';
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import { type Translate, useT } from '#web/i18n/messages.ts';

const lapLabel = (t: Translate, l: TrackAnalysisResponse['laps'][number], best: number | null) =>
  `${t('tracks.lapOption', { heat: l.heat, number: l.number, time: l.seconds === null ? '—' : formatLapTime(l.seconds * 1000) })}${l.index === best ? ` ${t('tracks.bestMark')}` : ''}`;

/** The reference select's values for the ideal lap and the rider's record at the track (a lap's is its index). */
export const IDEAL = 'ideal';
export const RECORD = 'record';
export type Reference = number | typeof IDEAL | typeof RECORD;

export function LapSelect(props: {
  label: string;
  laps: TrackAnalysisResponse['laps'];
  best: number | null;
  value: Reference;
  offerIdeal?: boolean;
  offerRecord?: boolean;
  busy: boolean;
  onChange: (value: Reference) => void;
}) {
  const t = useT();
  return (
    <label>
      {props.label}
      <select
        value={props.value}
        aria-busy={props.busy}
        onChange={(e) => {
          const v = e.target.value;
          props.onChange(v === IDEAL || v === RECORD ? v : Number(v));
        }}
      >
        {props.offerIdeal && <option value={IDEAL}>{t('tracks.referenceIdeal')}</option>}
        {props.offerRecord && <option value={RECORD}>{t('tracks.referenceRecord')}</option>}
        {props.laps.map((l) => (
          <option key={l.index} value={l.index}>
            {lapLabel(t, l, props.best)}
          </option>
        ))}
      </select>
    </label>
  );
}
