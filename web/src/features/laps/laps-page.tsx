import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatDdmmyyyy } from '../../../../core/formats/dates';
import { formatLapTime } from '../../../../core/formats/six-format';
import { Page } from '../../components/ui/page';
import { errorMessage, fill, t } from '../../i18n/messages';
import { useMe } from '../../lib/session';
import { useDates, useLaps, useTracks } from './laps.api';
import { LapsTable } from './laps-table';

/**
 * The spec's lap viewer. The loaded selection lives in the address (?hw=&pista=&data=) so reload
 * and sharing work; the dropdowns follow the spec: choosing a hardware loads its tracks and picks
 * the first, choosing a track loads its dates (ascending) and picks the first.
 */
export function LapsPage() {
  const me = useMe().data!;
  const devices = me.devices.length ? me.devices : [me.demoDevice];
  const [params, setParams] = useSearchParams();
  const loaded = { hw: params.get('hw'), pista: params.get('pista'), data: params.get('data') };

  const [hw, setHw] = useState(loaded.hw && devices.includes(loaded.hw) ? loaded.hw : devices[0]!);
  const [pista, setPista] = useState<string | undefined>(loaded.pista ?? undefined);
  const [data, setData] = useState<string | undefined>(loaded.data ?? undefined);

  const tracks = useTracks(hw);
  const dates = useDates(hw, pista);
  const laps = useLaps(loaded.hw, loaded.pista, loaded.data);

  // Tracks listed → keep a valid choice or pick the first.
  useEffect(() => {
    const list = tracks.data?.tracks;
    if (!list) return;
    if (!pista || !list.includes(pista)) setPista(list[0]);
  }, [tracks.data, pista]);
  // Dates listed → keep a valid choice or pick the first (ascending).
  useEffect(() => {
    const list = dates.data?.dates;
    if (!list) return;
    if (!data || !list.includes(data)) setData(list[0]);
  }, [dates.data, data]);

  const onHw = (value: string) => {
    setHw(value);
    setPista(undefined);
    setData(undefined);
  };
  const onPista = (value: string) => {
    setPista(value);
    setData(undefined);
  };
  const onCarregar = () => {
    if (!pista || !data) return;
    setParams({ hw, pista, data });
  };

  const isDemo = tracks.data?.demo ?? false;
  return (
    <Page title={t.laps.title} menu={[{ to: '/enroll', label: t.menu.meusDadosTitle }, { to: '/user', label: t.menu.home }]}>
      {isDemo && <p className="notice notice-demo" role="note">{fill(t.laps.demoBanner, { device: hw })}</p>}
      <form
        className="selector"
        onSubmit={(e) => {
          e.preventDefault();
          onCarregar();
        }}
      >
        {devices.length > 1 && (
          <div className="field">
            <label htmlFor="sel-hw">{t.laps.hardware}</label>
            <select id="sel-hw" value={hw} onChange={(e) => onHw(e.target.value)}>
              {devices.map((d) => <option key={d} value={d}>{d}</option>)}
            </select>
          </div>
        )}
        <div className="field">
          <label htmlFor="sel-pista">{t.laps.pista}</label>
          <select id="sel-pista" value={pista ?? ''} onChange={(e) => onPista(e.target.value)} disabled={!tracks.data?.tracks.length} aria-busy={tracks.isPending}>
            {(tracks.data?.tracks ?? []).map((name) => <option key={name} value={name}>{name}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="sel-data">{t.laps.data}</label>
          <select id="sel-data" value={data ?? ''} onChange={(e) => setData(e.target.value)} disabled={!dates.data?.dates.length} aria-busy={dates.isFetching}>
            {(dates.data?.dates ?? []).map((d) => <option key={d} value={d}>{formatDdmmyyyy(d)}</option>)}
          </select>
        </div>
        <button type="submit" className="btn btn-primary" disabled={!pista || !data}>{t.laps.carregar}</button>
      </form>

      {tracks.isError && <p role="alert" className="alert alert-error">{errorMessage(tracks.error)}</p>}
      {tracks.data && tracks.data.tracks.length === 0 && <p className="empty-state">{t.laps.noTracks}</p>}
      {dates.isError && <p role="alert" className="alert alert-error">{errorMessage(dates.error)}</p>}

      {!loaded.data && tracks.data?.tracks.length !== 0 && <p className="muted prompt">{t.laps.selectPrompt}</p>}
      {laps.isFetching && !laps.data && (
        <div className="loading-inline" role="status"><div className="spinner" aria-hidden="true" /> {t.laps.carregando}</div>
      )}
      {laps.isError && <p role="alert" className="alert alert-error">{errorMessage(laps.error)}</p>}
      {laps.data && (
        <section aria-label={`${laps.data.track} ${formatDdmmyyyy(laps.data.date)}`}>
          <dl className="summary">
            <div className="summary-item summary-best">
              <dt>{t.laps.bestLap}</dt>
              <dd>{laps.data.bestLapMs !== null ? formatLapTime(laps.data.bestLapMs) : '—'}</dd>
            </div>
            <div className="summary-item">
              <dt>{t.laps.theoreticalBest} <small>({t.laps.theoreticalHint})</small></dt>
              <dd>{laps.data.theoreticalBestMs !== null ? formatLapTime(laps.data.theoreticalBestMs) : '—'}</dd>
            </div>
            <div className="summary-item">
              <dt>{t.laps.lapCount}</dt>
              <dd>{laps.data.laps.length}</dd>
            </div>
          </dl>
          {laps.data.warnings.length > 0 && (
            <details className="notice notice-warning">
              <summary>{fill(t.laps.warningsTitle, { n: laps.data.warnings.length })}</summary>
              <ul>
                {laps.data.warnings.map((w) => (
                  <li key={`${w.line}-${w.field}`}>
                    {fill(t.laps.warningLine, { line: w.line, field: w.field, reason: t.problemReasons[w.reason as keyof typeof t.problemReasons] ?? w.reason })}
                  </li>
                ))}
              </ul>
            </details>
          )}
          {laps.data.laps.length === 0 ? <p className="empty-state">{t.laps.noLaps}</p> : <LapsTable data={laps.data} />}
        </section>
      )}
    </Page>
  );
}
