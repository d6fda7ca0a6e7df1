import { useEffect, useState } from 'react';
import { formatDdmmyyyy } from '#core/formats/dates.ts';
import { useT } from '../i18n/messages';
import { useDates, useTracks } from '../lib/sessions-api';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { deviceName } from '../lib/device-name';
import { ErrorAlert } from '#web/components/ui/query-status.tsx';
import { SelectField } from '#web/components/ui/select-field.tsx';

/**
 * The spec's selection: a hardware dropdown only with more than one device; choosing a hardware
 * lists its tracks and picks the first; choosing a track lists its dates (ascending, dd/mm/yyyy)
 * and picks the first. 'Carregar' is enabled only when pressing it loads something: while the
 * lists arrive (or the address's choice is not yet confirmed by them) it waits with a spinner,
 * and on the session already shown (`loaded`) it says so.
 */
export function SessionSelector(props: {
  devices: string[];
  initial: Partial<SessionAddress>;
  loaded?: SessionAddress | null | undefined;
  onLoad: (s: SessionAddress) => void;
}) {
  const t = useT();
  const { devices } = props;
  const [device, setDevice] = useState(
    props.initial.device && devices.includes(props.initial.device) ? props.initial.device : devices[0]!,
  );
  const [track, setTrack] = useState<string | undefined>(props.initial.track);
  const [date, setDate] = useState<string | undefined>(props.initial.date);
  const tracks = useTracks(device);
  const dates = useDates(device, track);

  useEffect(() => {
    const list = tracks.data?.tracks;
    if (list && (!track || !list.includes(track))) setTrack(list[0]);
  }, [tracks.data, track]);
  useEffect(() => {
    const list = dates.data?.dates;
    if (list && (!date || !list.includes(date))) setDate(list[0]);
  }, [dates.data, date]);

  const listed = Boolean(track && date && tracks.data?.tracks.includes(track) && dates.data?.dates.includes(date));
  const waiting =
    !listed &&
    !tracks.isError &&
    !dates.isError &&
    (tracks.isPending || (Boolean(track) && dates.isPending) || dates.isFetching);
  const { loaded } = props;
  const shown = Boolean(loaded && loaded.device === device && loaded.track === track && loaded.date === date);
  const reasonId = `sel-reason-${device}`;

  return (
    <>
      {tracks.data?.demo && (
        <p className="notice notice-demo" role="note">
          {t('laps.demoBanner', { device })}
        </p>
      )}
      <form
        className="selector"
        onSubmit={(e) => {
          e.preventDefault();
          if (track && date && listed) props.onLoad({ device, track, date });
        }}
      >
        {devices.length > 1 && (
          <SelectField
            id="sel-device"
            label={t('laps.hardware')}
            value={device}
            onChange={(d) => {
              setDevice(d);
              setTrack(undefined);
              setDate(undefined);
            }}
            options={devices.map((d) => ({ value: d, label: deviceName(t, d) }))}
          />
        )}
        <SelectField
          id="sel-track"
          label={t('laps.pista')}
          value={track ?? ''}
          onChange={(name) => {
            setTrack(name);
            setDate(undefined);
          }}
          disabled={!tracks.data?.tracks.length}
          aria-busy={tracks.isPending}
          options={(tracks.data?.tracks ?? []).map((name) => ({ value: name, label: name }))}
        />
        <SelectField
          id="sel-date"
          label={t('laps.data')}
          value={date ?? ''}
          onChange={setDate}
          disabled={!dates.data?.dates.length}
          aria-busy={dates.isFetching}
          options={(dates.data?.dates ?? []).map((d) => ({ value: d, label: formatDdmmyyyy(d) }))}
        />
        <button
          type="submit"
          className="btn btn-primary"
          disabled={!listed || shown}
          aria-describedby={waiting || shown ? reasonId : undefined}
        >
          {t('laps.carregar')}
        </button>
        {waiting && (
          <span className="loading-inline selector-reason" role="status" id={reasonId}>
            <span className="spinner" aria-hidden="true" /> {t('laps.loadingLists')}
          </span>
        )}
        {!waiting && shown && (
          <span className="muted selector-reason" id={reasonId}>
            {t('laps.alreadyLoaded')}
          </span>
        )}
      </form>
      <ErrorAlert error={tracks.error} />
      {tracks.data && tracks.data.tracks.length === 0 && <p className="empty-state">{t('laps.noTracks')}</p>}
      <ErrorAlert error={dates.error} />
    </>
  );
}

// Where the pages that show a selector take it from (the first lists are asked for with lib/session's).
export { selectableDevices } from '../lib/session';
