import { useState } from 'react';
import { Page } from '#web/components/ui/page.tsx';
import { QueryStatus } from '#web/components/ui/query-status.tsx';
import { SortableTable, type Column } from '#web/components/ui/sortable-table.tsx';
import { errorMessage, fill, t } from '#web/i18n/messages.ts';
import type { Gate } from '#core/tracks/gate.ts';
import { ADMIN_MENUS } from './admin-menus';
import { useAdminTrack, useAdminTracks, useMoveGate, useShareTrack } from './admin.api';
import { GateEditor } from './gate-editor';

type Row = {
  id: string;
  name: string;
  source: string;
  version: number;
  updatedAt: string;
  sessions: number;
  shared: boolean;
  createdBy: string;
};

/** Every track Voltas knows; an admin moves a track's start/finish gate on its map and saves it. */
export function TracksPage() {
  const a = t.admin;
  const tracks = useAdminTracks();
  const [chosen, setChosen] = useState<string | null>(null);
  const columns: Column<Row>[] = [
    { key: 'name', label: a.trackName, value: (r) => r.name },
    { key: 'source', label: a.trackSource, value: (r) => t.tracks.source[r.source] ?? r.source },
    { key: 'owner', label: a.trackOwner, value: (r) => (r.shared ? a.trackEveryone : r.createdBy) },
    { key: 'sessions', label: a.trackSessions, value: (r) => r.sessions },
    { key: 'version', label: a.trackVersion, value: (r) => r.version },
    {
      key: 'edit',
      label: a.trackEdit,
      value: () => '',
      sortable: false,
      render: (r) => (
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => setChosen(r.id)}
          aria-pressed={chosen === r.id}
        >
          {a.trackEdit}
        </button>
      ),
    },
  ];
  return (
    <Page title={a.tracksTitle} menu={ADMIN_MENUS.tracks}>
      <QueryStatus query={tracks}>
        {(rows) => (
          <SortableTable
            label={a.tracksTitle}
            columns={columns}
            rows={rows}
            rowKey={(r) => r.id}
            empty={a.tracksEmpty}
          />
        )}
      </QueryStatus>
      {chosen && (
        <TrackGate key={chosen} id={chosen} createdBy={tracks.data?.find((r) => r.id === chosen)?.createdBy ?? ''} />
      )}
    </Page>
  );
}

function TrackGate(props: { id: string; createdBy: string }) {
  const a = t.admin;
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
      <h2 id="gate-title">{fill(a.gateTitle, { name: track.data.name })}</h2>
      {track.data.source === 'derived' && (
        <>
          <label>
            <input
              type="checkbox"
              checked={track.data.shared}
              disabled={share.isPending}
              onChange={(e) => share.mutate({ id: props.id, shared: e.currentTarget.checked })}
            />{' '}
            {a.trackShared}
          </label>
          <p className="muted">{fill(a.trackSharedHelp, { owner: props.createdBy })}</p>
          {share.isError && (
            <p className="alert alert-error" role="alert">
              {errorMessage(share.error)}
            </p>
          )}
        </>
      )}
      <fieldset className="gate-choice">
        <legend>{a.gateWhich}</legend>
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
            {k === 0 ? a.gateStart : fill(a.gateSector, { n: k })}
          </label>
        ))}
      </fieldset>
      <p className="muted">{a.gateHelp}</p>
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
          {a.gateSave}
        </button>
        <button type="button" className="btn btn-secondary" disabled={!draft} onClick={() => setDraft(null)}>
          {a.gateReset}
        </button>
      </p>
      {!draft && !move.isSuccess && <p className="muted">{a.gateUnchanged}</p>}
      {move.isSuccess && !draft && (
        <p className="alert alert-success" role="status">
          {a.gateSaved}
        </p>
      )}
      {move.isError && (
        <p className="alert alert-error" role="alert">
          {errorMessage(move.error)}
        </p>
      )}
    </section>
  );
}
