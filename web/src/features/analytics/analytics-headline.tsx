// The analytics page's answer first: the best lap and the ideal lap.
import { memo } from 'react';
import { formatLapTime } from '#core/formats/lap-six.ts';
import { SummaryItem } from '#web/components/ui/summary-item.tsx';
import { useT } from '#web/i18n/messages.ts';

/** The answer first: the best lap and the ideal lap (the track analysis builds it: '…' until it has). */
export const Headline = memo(function Headline(props: {
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
