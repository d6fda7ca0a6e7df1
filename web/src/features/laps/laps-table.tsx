// The laps page's table: laps grouped by heat and sortable, the best lap, best sectors and the rider's
// record marked, the GPS's own time under the device's; on a phone the sectors and distance open with a tap.
import { Fragment, memo, useMemo, type ReactNode } from 'react';
import type { LapRow, LapsResponse } from '#core/contracts/sessions.contract.ts';
import { formatLapTime } from '#core/formats/lap-six.ts';
import { formatGap } from '#web/lib/format.ts';
import type { Units } from '#core/units.ts';
import { formatDistance } from '#web/lib/units-format.ts';
import { SortHeader, useSort } from '#web/components/ui/sortable.tsx';
import { useT } from '#web/i18n/messages.ts';
import { useToggleSet } from '#web/lib/toggle-set.ts';
import { PhoneDetailsButton } from '#web/components/ui/phone-details-button.tsx';
import { CompareLink } from '#web/components/compare-link.tsx';

type Column = 'number' | 'tempo' | 'distancia';
const accessors: Record<Column, (r: LapRow) => number> = {
  number: (r) => r.lapCount,
  tempo: (r) => r.lapTimeMs,
  distancia: (r) => r.distanceM,
};

/** Voltas's GPS time of each lap whose shown time is the device's or the logger's (the check beside it). */
export type GpsLapTimes = Map<string, { seconds: number; differs: boolean; source: 'device' | 'logger' }>;

/**
 * The spec's laps table, grouped by heat; best lap and best sectors stand out (colour + marker),
 * the rider's personal best in green. Where the GPS timed the same lap, its time is shown under
 * the device's; each flying lap may link to its comparison with the rider's record.
 */
export const LapsTable = memo(function LapsTable({
  data,
  gps,
  personalBest,
  compareHref,
  units = 'metric',
  busy = false,
}: {
  data: LapsResponse;
  gps?: GpsLapTimes;
  /** The lap of this session that is the rider's record at the track, if one is. */
  personalBest?: { heat: string; lapCount: number } | undefined;
  /** Where "comparar com meu recorde" goes for a lap (none: no link). */
  compareHref?: ((row: LapRow) => string) | undefined;
  /** The rider's units for distances (metric when not given). */
  units?: Units;
  /** The GPS times or the rider's record still coming: the table is completed when they are in. */
  busy?: boolean;
}) {
  const t = useT();
  const { sorted, sort, toggle } = useSort(data.laps, accessors);
  // On a phone: lap and time (with its gap) in the row, the heat in its group's heading; sectors,
  // distance and entries one tap away. So the table fits the phone, long lines (why a GPS time differs) wrapped.
  const [expanded, expand] = useToggleSet();
  const groups = useMemo(() => {
    const byHeat = new Map<string, LapRow[]>();
    for (const row of sorted) byHeat.set(row.heat, [...(byHeat.get(row.heat) ?? []), row]);
    return [...byHeat.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  }, [sorted]);

  return (
    <div className="table-scroll" role="region" aria-label={t('laps.tableLabel')} aria-busy={busy} tabIndex={0}>
      <table className="laps-table">
        <thead>
          <tr>
            <SortHeader label={t('laps.colNumber')} column="number" sort={sort} onSort={toggle} />
            <th scope="col" className="wide-only">
              {t('laps.colBateria')}
            </th>
            <SortHeader label={t('laps.colTempo')} column="tempo" sort={sort} onSort={toggle} />
            <SortHeader
              label={t('laps.colDistancia')}
              column="distancia"
              sort={sort}
              onSort={toggle}
              className="wide-only"
            />
            <th scope="col" className="wide-only">
              {t('laps.colEntrada')}
            </th>
            <th scope="col" className="wide-only">
              {t('laps.colSetores')}
            </th>
          </tr>
        </thead>
        {groups.map(([heat, rows]) => (
          <tbody key={heat}>
            <tr className="heat-row">
              <th colSpan={6} scope="rowgroup">
                {t('laps.heat', { heat })}
              </th>
            </tr>
            {rows.map((row) => {
              const pb = personalBest?.heat === row.heat && personalBest.lapCount === row.lapCount;
              const key = `${row.heat}-${row.lapCount}-${row.lapTimeMs}`;
              const open = expanded.has(key);
              return (
                <Fragment key={key}>
                  <tr
                    className={`lap-row lap-${row.kind}${row.isBest ? ' lap-best' : ''}${pb ? ' lap-pb' : ''}`}
                    data-testid="lap-row"
                  >
                    <td className="num">{row.lapCount}</td>
                    <td className="wide-only">{row.heat}</td>
                    <td className="time">
                      <span className="lap-time">{formatLapTime(row.lapTimeMs)}</span>
                      {row.isBest && <span className="badge badge-best">★ {t('laps.bestMarker')}</span>}
                      {pb && (
                        <span className="badge badge-pb" data-testid="personal-best">
                          ◆ {t('history.personalBest')}
                        </span>
                      )}
                      {row.kind === 'out' && <span className="badge">{t('laps.outLap')}</span>}
                      {row.kind === 'in' && <span className="badge">{t('laps.inLap')}</span>}
                      {row.kind === 'partial' && (
                        <span className="badge" title={t('tracks.partialHint')}>
                          {t('tracks.partialLap')}
                        </span>
                      )}
                      {row.kind === 'flying' && !row.isBest && row.gapMs !== null && (
                        <span className="gap">{formatGap(row.gapMs / 1000)}</span>
                      )}
                      {/* Voltas's GPS time only where it differs from the time shown (DESIGN.md: > 0.05 s), with why. */}
                      {gps?.get(`${row.heat}${row.lapCount}`)?.differs && (
                        <GpsTime {...gps.get(`${row.heat}${row.lapCount}`)!} deviceMs={row.lapTimeMs} />
                      )}
                      {compareHref && row.kind === 'flying' && !pb && (
                        <CompareLink to={compareHref(row)} lap={`${row.heat}${row.lapCount}`} />
                      )}
                      <PhoneDetailsButton open={open} controls={`details-${key}`} onToggle={() => expand(key)}>
                        {t('laps.colSetores')}
                      </PhoneDetailsButton>
                    </td>
                    <td className="num wide-only">{formatDistance(row.distanceM, units)}</td>
                    <td className="num wide-only">{row.sprintCount}</td>
                    <td className="wide-only">
                      <Sectors row={row} units={units} />
                    </td>
                  </tr>
                  {open && (
                    <tr className="lap-details phone-only" id={`details-${key}`}>
                      <td colSpan={3}>
                        <Sectors row={row} units={units} />
                        <p className="muted">
                          {t('laps.colDistancia')}: {formatDistance(row.distanceM, units)} · {t('laps.colEntrada')}:{' '}
                          {row.sprintCount}
                        </p>
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        ))}
      </table>
    </div>
  );
});

function Sectors({ row, units }: { row: LapRow; units: Units }): ReactNode {
  const t = useT();
  return (
    <ol className="sectors">
      {row.sectors.map((s, i) => (
        <li key={i} className={row.bestSectors[i] ? 'sector sector-best' : 'sector'}>
          <span className="sector-n">{t('laps.sector', { n: i + 1 })}</span>{' '}
          <span className="sector-time">{formatLapTime(s.timerMs)}</span>
          {row.bestSectors[i] && <span className="visually-hidden"> ({t('laps.bestSectorMarker')})</span>}
          {row.bestSectors[i] && <span aria-hidden="true"> ★</span>}{' '}
          <span className="sector-dist">{formatDistance(s.distanceM, units)}</span>
        </li>
      ))}
    </ol>
  );
}

function GpsTime(props: { seconds: number; source: 'device' | 'logger'; deviceMs: number }) {
  const t = useT();
  const delta = formatGap((Math.round(props.seconds * 1000) - props.deviceMs) / 1000);
  return (
    <span className="gps-time gps-differs" data-testid="gps-time">
      {t('laps.gpsTime', { time: formatLapTime(props.seconds * 1000) })}
      {/* The sign is for the eye: a screen reader reads the words after it. */} <span aria-hidden="true">≠</span>{' '}
      {t(`tracks.differs.${props.source}` as const, { delta })}{' '}
      <small className="muted gps-why">{t(`tracks.differsWhy.${props.source}` as const)}</small>
    </span>
  );
}
