// The admin's tracks page (/pistas): every track with its source, owner and sessions; choosing one opens
// its map to move its start/finish or sector gates, and a track made from a rider's sessions can be shared.
import { useState } from 'react';
import type { z } from 'zod';
import type { trackListSchema } from '#core/contracts/tracks.contract.ts';
import { Page } from '#web/components/ui/page.tsx';
import { ErrorAlert, QueryStatus } from '#web/components/ui/query-status.tsx';
import { SortableTable, type Column } from '#web/components/ui/sortable-table.tsx';
import { isMessageId, useT } from '#web/i18n/messages.ts';
import type { Gate } from '#core/tracks/gate.ts';
import { adminMenus } from './admin-menus';
import { useAdminTrack, useAdminTracks, useMoveGate, useShareTrack } from './admin.api';
import { GateEditor } from './gate-editor';

type Row = z.infer<typeof trackListSchema>[number];

/** Every track Voltas knows; an admin moves a track's start/finish gate on its map and saves it. */
export function TracksPage() {
  const t = useT();
  const tracks = useAdminTracks();
  const [chosen, setChosen] = useState<string | null>(null);
  const columns: Column<Row>[] = [
    { key: 'name', label: t('admin.trackName'), value: (r) => r.name },
    {
      key: 'source',
      label: t('admin.trackSource'),
      value: (r) =>
        isMessageId(`tracks.source.${r.source}`) ? t(`tracks.source.${r.source}` as 'tracks.source.bundled') : r.source,
    },
    { key: 'owner', label: t('admin.trackOwner'), value: (r) => (r.shared ? t('admin.trackEveryone') : r.createdBy) },
    { key: 'sessions', label: t('admin.trackSessions'), value: (r) => r.sessions },
    { key: 'version', label: t('admin.trackVersion'), value: (r) => r.version },
    {
      key: 'edit',
      label: t('admin.trackEdit'),
      value: () => '',
      sortable: false,
      render: (r) => (
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => setChosen(r.id)}
          aria-pressed={chosen === r.id}
        >
          {t('admin.trackEdit')}
        </button>
      ),
    },
  ];
  return (
    <Page title={t('admin.tracksTitle')} menu={adminMenus(t).tracks}>
      <SortableTable
        label={t('admin.tracksTitle')}
        columns={columns}
        query={tracks}
        rowKey={(r) => r.id}
        empty={t('admin.tracksEmpty')}
      />
      {chosen && (
        <TrackGate key={chosen} id={chosen} createdBy={tracks.data?.find((r) => r.id === chosen)?.createdBy ?? ''} />
      )}
    </Page>
  );
}

function TrackGate(props: { id: string; createdBy: string }) {
  const t = useT();
  const track = useAdminTrack(props.id);
  const move = useMoveGate();
  const share = useShareTrack();
  const [which, setWhich] = useState(0); // 0: start/finish; n: sector gate n
  const [draft, setDraft] = useState<Gate | null>(null);
  if (!track.data) return <QueryStatus query={track}>{() => null}</QueryStatus>;
  const gates = [track.data.gate, ...track.data.sectors];
  const gate = draft ?? gates[which]!;
  return (
    <section className="panel" aria-labelledby="gate-title">
      <h2 id="gate-title">{t('admin.gateTitle', { name: track.data.name })}</h2>
      {track.data.source === 'derived' && (
        <>
          <label>
            <input
              type="checkbox"
              checked={track.data.shared}
              disabled={share.isPending}
              onChange={(e) => share.mutate({ id: props.id, shared: e.currentTarget.checked })}
            />{' '}
            {t('admin.trackShared')}
          </label>
          <p className="muted">{t('admin.trackSharedHelp', { owner: props.createdBy })}</p>
          <ErrorAlert error={share.error} />
        </>
      )}
      <fieldset className="gate-choice">
        <legend>{t('admin.gateWhich')}</legend>
        {gates.map((_, k) => (
          <label key={k}>
            <input
              type="radio"
              name="gate"
              checked={which === k}
              onChange={() => {
                setWhich(k);
                setDraft(null);
              }}
            />{' '}
            {k === 0 ? t('admin.gateStart') : t('admin.gateSector', { n: k })}
          </label>
        ))}
      </fieldset>
      <p className="muted">{t('admin.gateHelp')}</p>
      <GateEditor
        key={which}
        line={track.data.line}
        corners={track.data.corners}
        gate={gate}
        others={gates.filter((_, k) => k !== which)}
        onChange={setDraft}
      />
      <p className="actions-row">
        <button
          type="button"
          className="btn btn-primary"
          disabled={!draft || move.isPending}
          onClick={() =>
            draft &&
            move.mutate({ id: props.id, gate: draft, sector: which || undefined }, { onSuccess: () => setDraft(null) })
          }
        >
          {t('admin.gateSave')}
        </button>
        <button type="button" className="btn btn-secondary" disabled={!draft} onClick={() => setDraft(null)}>
          {t('admin.gateReset')}
        </button>
      </p>
      {!draft && !move.isSuccess && <p className="muted">{t('admin.gateUnchanged')}</p>}
      {move.isSuccess && !draft && (
        <p className="alert alert-success" role="status">
          {t('admin.gateSaved')}
        </p>
      )}
      <ErrorAlert error={move.error} />
    </section>
  );
}
