import { useEffect, useState } from 'react';
import { formatDdmmyyyy } from '../../../core/formats/dates';
import { errorMessage, fill, t } from '../i18n/messages';
import { useDates, useTracks } from '../lib/sessions-api';
import type { SessionAddress } from '../../../core/contracts/session-paths';

/**
 * The spec's selection: a hardware dropdown only with more than one device; choosing a hardware
 * lists its tracks and picks the first; choosing a track lists its dates (ascending, dd/mm/yyyy)
 * and picks the first; 'Carregar' stays disabled until a track (and date) is chosen.
 */
export function SessionSelector(props: { devices: string[]; initial: Partial<SessionAddress>; onLoad: (s: SessionAddress) => void }) {
  const { devices } = props;
  const [hw, setHw] = useState(props.initial.device && devices.includes(props.initial.device) ? props.initial.device : devices[0]!);
  const [pista, setPista] = useState<string | undefined>(props.initial.track);
  const [data, setData] = useState<string | undefined>(props.initial.date);
  const tracks = useTracks(hw);
  const dates = useDates(hw, pista);

  useEffect(() => {
    const list = tracks.data?.tracks;
    if (list && (!pista || !list.includes(pista))) setPista(list[0]);
  }, [tracks.data, pista]);
  useEffect(() => {
    const list = dates.data?.dates;
    if (list && (!data || !list.includes(data))) setData(list[0]);
  }, [dates.data, data]);

  return (
    <>
      {tracks.data?.demo && (
        <p className="notice notice-demo" role="note">
          {fill(t.laps.demoBanner, { device: hw })}
        </p>
      )}
      <form
        className="selector"
        onSubmit={(e) => {
          e.preventDefault();
          if (pista && data) props.onLoad({ device: hw, track: pista, date: data });
        }}
      >
        {devices.length > 1 && (
          <div className="field">
            <label htmlFor="sel-hw">{t.laps.hardware}</label>
            <select
              id="sel-hw"
              value={hw}
              onChange={(e) => {
                setHw(e.target.value);
                setPista(undefined);
                setData(undefined);
              }}
            >
              {devices.map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="field">
          <label htmlFor="sel-pista">{t.laps.pista}</label>
          <select
            id="sel-pista"
            value={pista ?? ''}
            onChange={(e) => {
              setPista(e.target.value);
              setData(undefined);
            }}
            disabled={!tracks.data?.tracks.length}
            aria-busy={tracks.isPending}
          >
            {(tracks.data?.tracks ?? []).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="sel-data">{t.laps.data}</label>
          <select id="sel-data" value={data ?? ''} onChange={(e) => setData(e.target.value)} disabled={!dates.data?.dates.length} aria-busy={dates.isFetching}>
            {(dates.data?.dates ?? []).map((d) => (
              <option key={d} value={d}>
                {formatDdmmyyyy(d)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-primary" disabled={!pista || !data}>
          {t.laps.carregar}
        </button>
      </form>
      {tracks.isError && (
        <p role="alert" className="alert alert-error">
          {errorMessage(tracks.error)}
        </p>
      )}
      {tracks.data && tracks.data.tracks.length === 0 && <p className="empty-state">{t.laps.noTracks}</p>}
      {dates.isError && (
        <p role="alert" className="alert alert-error">
          {errorMessage(dates.error)}
        </p>
      )}
    </>
  );
}

/** The rider's devices for selection: their own, or the demo device when they have none. */
export function selectableDevices(me: { devices: string[]; demoDevice: string }): string[] {
  return me.devices.length ? me.devices : [me.demoDevice];
}
