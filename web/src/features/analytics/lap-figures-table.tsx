import type { AnalysisResponse, LapsResponse } from '../../../../core/contracts/sessions.contract';
import { formatLapTime } from '../../../../core/formats/lap-six';
import { Link } from 'react-router';
import { fill, t } from '../../i18n/messages';
import { lean, oneDecimal, speedTable } from '../../lib/format';
import { lapKey } from './chart-data';

/** Per lap: time, top and minimum speed, lean extremes, satellites, sample rate; choose laps to overlay; export. */
export function LapFiguresTable(props: {
  analysis: AnalysisResponse;
  laps: LapsResponse | undefined;
  chosen: Set<string>;
  bestKey: string | null;
  onToggle: (key: string) => void;
  exportHref: (format: 'csv' | 'gpx', lap: { heat: string; lapCount: number }) => string;
  /** The rider's record at the track, when it is a lap of this session ('A3'). */
  personalBestKey?: string | null;
  /** "Comparar com meu recorde" for a lap (none without a record). */
  compareHref?: ((lap: { heat: string; lapCount: number }) => string) | undefined;
}) {
  const a = t.analytics;
  const lapTimeOf = (heat: string, lapCount: number, fallbackMs: number) =>
    props.laps?.laps.find((l) => l.heat === heat && l.lapCount === lapCount)?.lapTimeMs ?? fallbackMs;
  return (
    <div className="table-scroll" role="region" aria-label={a.lapsTable} tabIndex={0}>
      <table className="data-table figures-table">
        <thead>
          <tr>
            <th scope="col">{a.colShow}</th>
            <th scope="col">{a.colLap}</th>
            <th scope="col">{a.colTime}</th>
            <th scope="col">{a.colTop}</th>
            <th scope="col">{a.colMin}</th>
            <th scope="col">{a.colLeanL}</th>
            <th scope="col">{a.colLeanR}</th>
            <th scope="col">{a.colSats}</th>
            <th scope="col">{a.colRate}</th>
            <th scope="col">{a.colExport}</th>
          </tr>
        </thead>
        <tbody>
          {props.analysis.laps.map((lap) => {
            const key = lapKey(lap);
            const isBest = key === props.bestKey;
            const isRecord = key === props.personalBestKey;
            return (
              <tr key={key} className={`${isBest ? 'lap-best' : lap.outLap ? 'lap-out' : ''}${isRecord ? ' lap-pb' : ''}`} data-testid="figures-row">
                <td>
                  <label className="check-target">
                    <input
                      type="checkbox"
                      className="big-check"
                      checked={props.chosen.has(key)}
                      onChange={() => props.onToggle(key)}
                      aria-label={fill(a.showLap, { lap: key })}
                    />
                  </label>
                </td>
                <td>
                  {key}
                  {isBest && <span className="badge badge-best">★ {a.best}</span>}
                  {lap.outLap && <span className="badge">{a.outLap}</span>}
                  {isRecord && (
                    <span className="badge badge-pb" data-testid="personal-best">
                      ◆ {t.history.personalBest}
                    </span>
                  )}
                </td>
                <td className={isRecord ? 'num time-pb' : 'num'}>
                  {formatLapTime(lapTimeOf(lap.heat, lap.lapCount, lap.durationMs))}
                  {props.compareHref && !lap.outLap && !isRecord && (
                    <Link className="compare-link" to={props.compareHref(lap)}>
                      {t.history.compareRecord}
                    </Link>
                  )}
                </td>
                <td className="num">{speedTable(lap.topSpeedKmh)}</td>
                <td className="num">{speedTable(lap.minSpeedKmh)}</td>
                <td className="num">{lean(lap.maxLeanLeftDeg)}</td>
                <td className="num">{lean(lap.maxLeanRightDeg)}</td>
                <td className="num">
                  {Math.round(lap.meanSatellites)} <small>{fill(a.minSatellites, { n: lap.minSatellites })}</small>
                  {lap.weakFix && <span className="badge badge-warn">⚠ {a.weakFix}</span>}
                </td>
                <td className="num">{oneDecimal(lap.sampleRateHz)}</td>
                <td>
                  <a href={props.exportHref('csv', lap)} download>
                    {a.exportCsvShort}
                  </a>{' '}
                  ·{' '}
                  <a href={props.exportHref('gpx', lap)} download>
                    {a.exportGpx}
                  </a>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
