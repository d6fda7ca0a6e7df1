// The analytics page's parts that read an answer of their own: the session's figures and exports,
// the GPS file's progress, and the lap table with the rider's record.
import { memo, useMemo } from 'react';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import type { AnalysisResponse } from '#core/contracts/sessions.contract.ts';
import { compareWithRecordHref } from '#web/components/compare-link.tsx';
import { ShareButton } from '#web/components/share-button.tsx';
import { SummaryItem } from '#web/components/ui/summary-item.tsx';
import { useT } from '#web/i18n/messages.ts';
import { lean, leanRecorded, oneDecimal } from '#web/lib/format.ts';
import { useRecords } from '#web/lib/history-api.ts';
import { useMe } from '#web/lib/session.ts';
import { useUnits } from '#web/lib/preferences.ts';
import { formatSpeed } from '#web/lib/units-format.ts';
import { useGpsProgress } from './analytics.api';
import { LapFiguresTable } from './lap-figures-table';
import { listedTopSpeed, type ShownLap } from './shown-laps';

/** The session's figures, its exports and its share button: rendered when the figures or the track's laps change. */
export const SessionFigures = memo(function SessionFigures(props: {
  analysis: AnalysisResponse;
  session: SessionAddress;
  shareLaps: string[];
  exportHref: (format: string) => string;
  shown: Map<string, ShownLap>;
}) {
  const t = useT();
  const me = useMe().data!;
  const units = useUnits();
  const { analysis, session, exportHref } = props;
  const leanKnown = leanRecorded(analysis);
  const top = listedTopSpeed(analysis, props.shown);
  return (
    <>
      <dl className="summary" data-testid="analysis-summary">
        <SummaryItem
          label={t('analytics.topSpeed')}
          data-testid="top-speed"
          note={t('analytics.onLap', { lap: top.lap })}
        >
          {formatSpeed(top.kmh, units)}
        </SummaryItem>
        <SummaryItem
          label={t('analytics.maxLeanLeft')}
          data-testid="lean-left"
          note={
            leanKnown
              ? t('analytics.onLap', { lap: `${analysis.maxLeanLeftHeat ?? ''}${analysis.maxLeanLeftLap ?? ''}` })
              : t('analytics.leanNotRecorded')
          }
        >
          {leanKnown ? lean(analysis.maxLeanLeftDeg) : '—'}
        </SummaryItem>
        <SummaryItem
          label={t('analytics.maxLeanRight')}
          data-testid="lean-right"
          note={
            leanKnown
              ? t('analytics.onLap', { lap: `${analysis.maxLeanRightHeat ?? ''}${analysis.maxLeanRightLap ?? ''}` })
              : t('analytics.leanNotRecorded')
          }
        >
          {leanKnown ? lean(analysis.maxLeanRightDeg) : '—'}
        </SummaryItem>
        <SummaryItem label={t('analytics.sampleRate')}>
          {t('analytics.hz', { hz: oneDecimal(analysis.sampleRateHz) })}
        </SummaryItem>
      </dl>
      <p className="actions-row">
        <span>{t('analytics.exportSession')}:</span>
        <a className="btn btn-secondary btn-small" href={exportHref('csv')} download>
          {t('analytics.exportCsv')}
        </a>
        <a className="btn btn-secondary btn-small" href={exportHref('gpx')} download>
          {t('analytics.exportGpx')}
        </a>
        <a className="btn btn-secondary btn-small" href={exportHref('lap.six')} download>
          {t('analytics.exportLapSix')}
        </a>
        <a className="btn btn-secondary btn-small" href={exportHref('gps.six')} download>
          {t('analytics.exportGpsSix')}
        </a>
        {session.device !== me.demoDevice && <ShareButton session={session} laps={props.shareLaps} />}
      </p>
    </>
  );
});

/** Room for the map and charts while the GPS file arrives (what lies below stays below the first screen), with its progress. */
export function GpsPending({ session }: { session: SessionAddress }) {
  const t = useT();
  // Read here, not by the page: each step of the download re-renders this bar alone.
  const progress = useGpsProgress(session);
  return (
    <div className="gps-pending loading-inline" role="status">
      <progress max={1} value={progress || undefined} aria-label={t('analytics.loadingGps')} />{' '}
      {t('analytics.loadingGps')}
    </div>
  );
}

/** The lap table, with the rider's record at this track marked: the records' answer renders the table alone. */
export function LapTable(
  props: Omit<Parameters<typeof LapFiguresTable>[0], 'personalBestKey' | 'compareHref'> & { session: SessionAddress },
) {
  const { session, ...table } = props;
  const records = useRecords();
  const record = records.data?.records.find((r) => r.tracks.includes(session.track));
  const personalBestKey =
    record && record.device === session.device && record.date === session.date
      ? `${record.heat}${record.lapCount}`
      : null;
  const hasRecord = Boolean(record);
  const compareHref = useMemo(
    () => (hasRecord ? (l: { heat: string; lapCount: number }) => compareWithRecordHref(session, l) : undefined),
    [hasRecord, session],
  );
  return (
    <LapFiguresTable {...table} personalBestKey={personalBestKey} compareHref={compareHref} busy={records.isPending} />
  );
}
