// The admin's tracks page (/pistas): every track with its source, owner and sessions; choosing one opens
// its map to move its start/finish or sector gates and to draw its pit lane ("Box", which the devices'
// track pack carries), and a track made from a rider's sessions can be shared. A catalogue circuit
// nobody has ridden yet is found by name, for its pit lane alone.
import { useState } from 'react';
import type { z } from 'zod';
import type { trackListSchema } from '#core/contracts/tracks.contract.ts';
import { CatalogueSearch } from '#web/components/ui/catalogue-search.tsx';
import { Page } from '#web/components/ui/page.tsx';
import { ErrorAlert, QueryStatus } from '#web/components/ui/query-status.tsx';
import { SortableTable, type Column } from '#web/components/ui/sortable-table.tsx';
import { errorMessage, fieldMessage, isMessageId, useT } from '#web/i18n/messages.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { gateAcross, type Gate } from '#core/tracks/gate.ts';
import { adminMenus } from './admin-menus';
import { useAdminTrack, useAdminTracks, useDrawPitLane, useMoveGate, useShareTrack } from './admin.api';
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
      <section className="panel" aria-labelledby="catalogue-pit-title">
        <h2 id="catalogue-pit-title">{t('admin.catalogueTitle')}</h2>
        <p className="muted">{t('admin.catalogueHelp')}</p>
        <CatalogueSearch
          choice={(c) => (
            <button
              type="button"
              className="btn btn-secondary"
              aria-pressed={chosen === `catalogue:${c.id}`}
              onClick={() => setChosen(`catalogue:${c.id}`)}
            >
              {t('admin.catalogueOpen', { name: c.name })}
            </button>
          )}
        />
      </section>
      {chosen && (
        <TrackGate key={chosen} id={chosen} createdBy={tracks.data?.find((r) => r.id === chosen)?.createdBy ?? ''} />
      )}
    </Page>
  );
}

type PitLane = { entry: Gate; exit: Gate };
/** The line being moved: the start/finish (0), sector gate n, or the pit lane's entry or exit. */
type Which = number | keyof PitLane;

/**
 * A first pit lane to drag into place: lines across the track about 120 m before and after the
 * start/finish, where most boxes open and close (the admin moves each onto the pit lane itself).
 */
function proposedPitLane(line: [number, number][]): PitLane {
  const across = (k: number) => {
    const [lat, lon] = line[(k + line.length) % line.length]!;
    const [lat2, lon2] = line[(k + 1 + line.length) % line.length]!;
    return gateAcross({ lat, lon }, (lon2 - lon) * Math.cos((lat * Math.PI) / 180), lat2 - lat, PIT_LINE_HALF_M);
  };
  return { entry: across(-PIT_LINE_OFFSET), exit: across(PIT_LINE_OFFSET) };
}
/** Points of the map's line (every ~10 m) between the start/finish and a proposed pit line. */
const PIT_LINE_OFFSET = 12;
const PIT_LINE_HALF_M = 8;

function TrackGate(props: { id: string; createdBy: string }) {
  const t = useT();
  const track = useAdminTrack(props.id);
  const move = useMoveGate();
  const share = useShareTrack();
  const drawPit = useDrawPitLane();
  const [which, setWhich] = useState<Which>(0);
  const [draft, setDraft] = useState<Gate | null>(null);
  // The pit lane as the admin has moved it and not yet saved (both lines: they are saved together).
  const [laneDraft, setLaneDraft] = useState<PitLane | null>(null);
  if (!track.data) return <QueryStatus query={track}>{() => null}</QueryStatus>;
  const gates = [track.data.gate, ...track.data.sectors];
  const lane = laneDraft ?? track.data.pitLane;
  // A pit line is only chosen while there is a pit lane (a cleared one leaves the start/finish); a
  // circuit nobody has ridden has its pit lane alone to change (its gates are the catalogue's).
  const at: Which = typeof which === 'string' ? (lane ? which : 0) : track.data.stored || !lane ? which : 'entry';
  const onPit = typeof at === 'string';
  const editing = onPit || track.data.stored;
  const gate = typeof at === 'string' ? lane![at] : (draft ?? gates[at]!);
  // The other lines, thin, for reference: the gates and the pit lane's.
  const moving = typeof at === 'string' ? lane![at] : gates[at];
  const others = [...gates, ...(lane ? [lane.entry, lane.exit] : [])].filter((g) => g !== moving);
  const choose = (next: Which) => {
    setWhich(next);
    setDraft(null);
    if (typeof next === 'number') setLaneDraft(null);
  };
  const changed = onPit ? laneDraft !== null : draft !== null;
  // A line the server refused (too short, too long): what a line must be, rather than "invalid".
  const pitLineError =
    drawPit.error instanceof ApiError
      ? fieldMessage(t, drawPit.error.fields['pitLane/entry'] ?? drawPit.error.fields['pitLane/exit'])
      : undefined;
  const undo = () => {
    if (onPit && !track.data.pitLane) choose(0);
    setDraft(null);
    setLaneDraft(null);
  };
  const choices: { key: Which; label: string }[] = [
    ...(track.data.stored
      ? gates.map((_, k) => ({ key: k, label: k === 0 ? t('admin.gateStart') : t('admin.gateSector', { n: k }) }))
      : []),
    ...(lane
      ? [
          { key: 'entry' as const, label: t('admin.pitEntry') },
          { key: 'exit' as const, label: t('admin.pitExit') },
        ]
      : []),
  ];
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
        {choices.map((c) => (
          <label key={c.key}>
            <input type="radio" name="gate" checked={at === c.key} onChange={() => choose(c.key)} /> {c.label}
          </label>
        ))}
      </fieldset>
      <div className="actions-row">
        {lane ? (
          <button
            type="button"
            className="btn btn-secondary"
            disabled={drawPit.isPending || !track.data.pitLane}
            onClick={() => {
              choose(0);
              drawPit.mutate({ id: props.id, pitLane: null });
            }}
          >
            {t('admin.pitClear')}
          </button>
        ) : (
          <>
            <span className="muted">{t('admin.pitNone')}</span>
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => {
                setLaneDraft(proposedPitLane(track.data.line));
                setWhich('entry');
                setDraft(null);
              }}
            >
              {t('admin.pitDraw')}
            </button>
          </>
        )}
      </div>
      {editing && (
        <>
          <p className="muted">{t('admin.gateHelp')}</p>
          <GateEditor
            key={at}
            line={track.data.line}
            corners={track.data.corners}
            gate={gate}
            others={others}
            onChange={(moved) => (typeof at === 'string' ? setLaneDraft({ ...lane!, [at]: moved }) : setDraft(moved))}
          />
          <p className="actions-row">
            <button
              type="button"
              className="btn btn-primary"
              disabled={!changed || move.isPending || drawPit.isPending}
              onClick={() => {
                if (onPit)
                  drawPit.mutate({ id: props.id, pitLane: laneDraft }, { onSuccess: () => setLaneDraft(null) });
                else if (draft)
                  move.mutate(
                    { id: props.id, gate: draft, sector: typeof at === 'number' && at ? at : undefined },
                    { onSuccess: () => setDraft(null) },
                  );
              }}
            >
              {onPit ? t('admin.pitSave') : t('admin.gateSave')}
            </button>
            <button type="button" className="btn btn-secondary" disabled={!changed} onClick={undo}>
              {t('admin.gateReset')}
            </button>
          </p>
          {!changed && !move.isSuccess && !drawPit.isSuccess && <p className="muted">{t('admin.gateUnchanged')}</p>}
        </>
      )}
      {move.isSuccess && !draft && !onPit && (
        <p className="alert alert-success" role="status">
          {t('admin.gateSaved')}
        </p>
      )}
      {drawPit.isSuccess && !laneDraft && (
        <p className="alert alert-success" role="status">
          {drawPit.variables.pitLane ? t('admin.pitSaved') : t('admin.pitCleared')}
        </p>
      )}
      <ErrorAlert error={move.error} />
      {drawPit.error && (
        <p className="alert alert-error" role="alert">
          {pitLineError ?? errorMessage(t, drawPit.error)}
        </p>
      )}
    </section>
  );
}
