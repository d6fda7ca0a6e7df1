// The analytics page's lap table: each lap's figures, a box to show it on the map and charts, and its
// CSV/GPX exports. On a phone a row keeps the lap and its time; the rest opens with a tap.
import { Fragment, memo } from 'react';
import type { AnalysisResponse } from '#core/contracts/sessions.contract.ts';
import { formatLapTime } from '#core/formats/lap-six.ts';
import { useT } from '#web/i18n/messages.ts';
import type { Units } from '#core/units.ts';
import { lean, leanRecorded, oneDecimal, speedTable } from '#web/lib/format.ts';
import { unitLabel } from '#web/lib/units-format.ts';
import { lapKey } from './chart-data';
import type { ShownLap } from './shown-laps';
import { useToggleSet } from '#web/lib/toggle-set.ts';
import { PhoneDetailsButton } from '#web/components/ui/phone-details-button.tsx';
import { CompareLink, CompareLinkRoom } from '#web/components/compare-link.tsx';
import { RowsWhenNear } from '#web/components/ui/when-near.tsx';

/**
 * The rows drawn with the table: more than its box of 560 px shows (a row is 48 px or more); the
 * rest of a full day's hundred are drawn as the rider scrolls in the box.
 */
const FIRST_ROWS = 12;

/** The columns a phone shows one tap away. */
const WIDE_COLUMNS = ['colTop', 'colMin', 'colLeanL', 'colLeanR', 'colSats', 'colRate', 'colExport'] as const;

/**
 * Per lap: time, top and minimum speed, lean extremes, satellites, sample rate; choose laps to
 * overlay; export. On a phone a row holds the lap and its time, the rest one tap away (as the
 * laps table): a full day's table is then a third of the page to lay out, and no sideways scroll.
 */
export const LapFiguresTable = memo(function LapFiguresTable(props: {
  analysis: AnalysisResponse;
  /** Each lap's kind and time in the session's one lap list. */
  shown: Map<string, ShownLap>;
  chosen: Set<string>;
  bestKey: string | null;
  onToggle: (key: string) => void;
  exportHref: (format: 'csv' | 'gpx', lap: { heat: string; lapCount: number }) => string;
  /** The rider's record at the track, when it is a lap of this session ('A3'). */
  personalBestKey?: string | null;
  /** "Comparar com meu recorde" for a lap (none without a record). */
  compareHref?: ((lap: { heat: string; lapCount: number }) => string) | undefined;
  /** The rider's units (metric when not given). */
  units?: Units;
  /** The rider's record still being asked for: its mark and "Comparar com meu recorde" come after. */
  busy?: boolean;
}) {
  const t = useT();
  const units = props.units ?? 'metric';
  // The speed columns name the rider's unit.
  const speedUnit = { unit: unitLabel('speed', units) };
  const [expanded, expand] = useToggleSet();
  const leanOf = (deg: number) => (leanRecorded(props.analysis) ? lean(deg) : '—');
  // An import's GPS file names every stretch outside its laps (a lead-in, a stand in the pits) A0:
  // only the first stretch of a name is that lap of the list; the others are pieces, with no time.
  const named = new Set<string>();
  const rows = props.analysis.laps.map((lap) => {
    const key = lapKey(lap);
    const first = !named.has(key);
    named.add(key);
    return { lap, key, first, row: first ? key : `${key}@${lap.start}` };
  });
  const renderRow = ({ lap, key, first, row }: (typeof rows)[number]) => {
    const isBest = first && key === props.bestKey;
    const isRecord = first && key === props.personalBestKey;
    const open = expanded.has(row);
    const shown = first ? props.shown.get(key) : undefined;
    const kind = shown?.kind ?? (lap.outLap ? 'out' : 'partial');
    return (
      <Fragment key={row}>
        <tr
          className={`${isBest ? 'lap-best' : kind !== 'flying' ? 'lap-out' : ''}${isRecord ? ' lap-pb' : ''}`}
          data-testid="figures-row"
        >
          <td>
            <label className="check-target">
              <input
                type="checkbox"
                className="big-check"
                checked={props.chosen.has(key)}
                onChange={() => props.onToggle(key)}
                aria-label={t('analytics.showLap', { lap: key })}
              />
            </label>
          </td>
          <td>
            {key}
            {isBest && <span className="badge badge-best">★ {t('analytics.best')}</span>}
            {kind === 'out' && <span className="badge">{t('analytics.outLap')}</span>}
            {kind === 'in' && <span className="badge">{t('laps.inLap')}</span>}
            {kind === 'partial' && (
              <span className="badge" title={t('tracks.partialHint')}>
                {t('tracks.partialLap')}
              </span>
            )}
            {isRecord && (
              <span className="badge badge-pb" data-testid="personal-best">
                ◆ {t('history.personalBest')}
              </span>
            )}
          </td>
          <td className={isRecord ? 'num time-pb' : 'num'}>
            <span className="lap-time">
              {shown?.seconds == null ? '—' : formatLapTime(Math.round(shown.seconds * 1000))}
            </span>
            {kind === 'flying' &&
              shown?.seconds != null &&
              !isRecord &&
              (props.compareHref ? (
                <CompareLink to={props.compareHref(lap)} lap={key} />
              ) : (
                props.busy && <CompareLinkRoom />
              ))}
            <PhoneDetailsButton open={open} controls={`figures-${row}`} onToggle={() => expand(row)}>
              {t('analytics.lapDetails')}
            </PhoneDetailsButton>
          </td>
          <td className="num wide-only">{speedTable(lap.topSpeedKmh, units)}</td>
          <td className="num wide-only">{speedTable(lap.minSpeedKmh, units)}</td>
          <td className="num wide-only">{leanOf(lap.maxLeanLeftDeg)}</td>
          <td className="num wide-only">{leanOf(lap.maxLeanRightDeg)}</td>
          <td className="num wide-only">
            <Satellites lap={lap} />
          </td>
          <td className="num wide-only">{oneDecimal(lap.sampleRateHz)}</td>
          <td className="wide-only">
            <Exports lap={lap} href={props.exportHref} />
          </td>
        </tr>
        {open && (
          <tr className="lap-details phone-only" id={`figures-${row}`}>
            <td colSpan={3}>
              <dl className="lap-figures">
                <dt>{t('preferences.colTop', speedUnit)}</dt>
                <dd>{speedTable(lap.topSpeedKmh, units)}</dd>
                <dt>{t('preferences.colMin', speedUnit)}</dt>
                <dd>{speedTable(lap.minSpeedKmh, units)}</dd>
                <dt>{t('analytics.colLeanL')}</dt>
                <dd>{leanOf(lap.maxLeanLeftDeg)}</dd>
                <dt>{t('analytics.colLeanR')}</dt>
                <dd>{leanOf(lap.maxLeanRightDeg)}</dd>
                <dt>{t('analytics.colSats')}</dt>
                <dd>
                  <Satellites lap={lap} />
                </dd>
                <dt>{t('analytics.colRate')}</dt>
                <dd>{oneDecimal(lap.sampleRateHz)}</dd>
                <dt>{t('analytics.colExport')}</dt>
                <dd>
                  <Exports lap={lap} href={props.exportHref} />
                </dd>
              </dl>
            </td>
          </tr>
        )}
      </Fragment>
    );
  };
  return (
    <div
      className="table-scroll figures-scroll"
      role="region"
      aria-label={t('analytics.lapsTable')}
      aria-busy={props.busy ?? false}
      tabIndex={0}
    >
      <table className="data-table figures-table">
        <thead>
          <tr>
            <th scope="col">{t('analytics.colShow')}</th>
            <th scope="col">{t('analytics.colLap')}</th>
            <th scope="col">{t('analytics.colTime')}</th>
            {WIDE_COLUMNS.map((k) => (
              <th key={k} scope="col" className="wide-only">
                {k === 'colTop' || k === 'colMin' ? t(`preferences.${k}`, speedUnit) : t(`analytics.${k}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{rows.slice(0, FIRST_ROWS).map(renderRow)}</tbody>
        {rows.length > FIRST_ROWS && (
          <RowsWhenNear
            height={48 * (rows.length - FIRST_ROWS)}
            columns={3 + WIDE_COLUMNS.length}
            rows={() => rows.slice(FIRST_ROWS).map(renderRow)}
          />
        )}
      </table>
    </div>
  );
});

type FiguresLap = AnalysisResponse['laps'][number];

function Satellites({ lap }: { lap: FiguresLap }) {
  const t = useT();
  return (
    <>
      {Math.round(lap.meanSatellites)} <small>{t('analytics.minSatellites', { n: lap.minSatellites })}</small>
      {lap.weakFix && <span className="badge badge-warn">⚠ {t('analytics.weakFix')}</span>}
    </>
  );
}

function Exports({
  lap,
  href,
}: {
  lap: FiguresLap;
  href: (format: 'csv' | 'gpx', lap: { heat: string; lapCount: number }) => string;
}) {
  const t = useT();
  return (
    <>
      <a href={href('csv', lap)} download>
        {t('analytics.exportCsvShort')}
      </a>{' '}
      ·{' '}
      <a href={href('gpx', lap)} download>
        {t('analytics.exportGpx')}
      </a>
    </>
  );
}
