// The admin's firmware page (/firmware, issue 61): upload an image signed off the server, roll it out
// to cohorts and a share of the fleet, watch each rollout as a funnel (offered → downloaded →
// confirmed / failed) that halts itself past its failure threshold, and the versions the fleet runs.
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import type { Fleet } from '#core/contracts/device-health.contract.ts';
import { firmwareManifestSchema, type Firmware, type Rollout } from '#core/contracts/firmware.contract.ts';
import { Page } from '#web/components/ui/page.tsx';
import { ErrorAlert, QueryStatus } from '#web/components/ui/query-status.tsx';
import { SortableTable, type Column } from '#web/components/ui/sortable-table.tsx';
import { useT, type Translate } from '#web/i18n/messages.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { byteSize } from '#web/lib/fleet-format.ts';
import { useAdminSellers, useAdminUsers } from './admin.api';
import { adminMenus } from './admin-menus';
import {
  uploadFirmwareImage,
  useAdminFleet,
  useCohortMembers,
  useCreateFirmware,
  useCreateRollout,
  useFirmwareList,
  usePatchRollout,
  useRollouts,
  useSetCohort,
} from './firmware.api';

export function FirmwarePage() {
  const t = useT();
  const fleet = useAdminFleet(true);
  return (
    <Page title={t('firmware.title')} menu={adminMenus(t).firmware}>
      <UploadPanel />
      <Images />
      <RolloutForm />
      <Rollouts />
      <Cohorts />
      <section className="panel">
        {/* Its table is the region, named as this heading. */}
        <h2>{t('firmware.spreadTitle')}</h2>
        <QueryStatus query={fleet}>{(f) => <VersionSpread versions={f.versions} />}</QueryStatus>
      </section>
    </Page>
  );
}

/** What a signed manifest and its signature must look like before the server is asked. */
function checkSigned(
  manifest: string,
  signature: string,
): { manifest?: 'firmware.manifestInvalid'; signature?: 'firmware.signatureInvalid'; size?: number } {
  const errors: { manifest?: 'firmware.manifestInvalid'; signature?: 'firmware.signatureInvalid'; size?: number } = {};
  try {
    const parsed = firmwareManifestSchema.safeParse(JSON.parse(manifest));
    if (parsed.success) errors.size = parsed.data.size;
    else errors.manifest = 'firmware.manifestInvalid';
  } catch {
    errors.manifest = 'firmware.manifestInvalid';
  }
  // Ed25519: 64 bytes, 88 base64 characters with their padding.
  if (!/^[A-Za-z0-9+/]{86}==$/.test(signature.trim())) errors.signature = 'firmware.signatureInvalid';
  return errors;
}

type UploadErrors = Partial<Record<'file' | 'manifest' | 'signature' | 'image', string>>;

/** Manifest and signature (pasted, or read from the signing command's output), then the image with a progress bar. */
function UploadPanel() {
  const t = useT();
  const qc = useQueryClient();
  const create = useCreateFirmware();
  const [manifest, setManifest] = useState('');
  const [signature, setSignature] = useState('');
  const [image, setImage] = useState<File | null>(null);
  const [errors, setErrors] = useState<UploadErrors>({});
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  // The manifest the server took but whose image did not arrive: sending again sends only the image.
  const [created, setCreated] = useState<{ manifest: string; id: string } | null>(null);

  const onSignedFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    try {
      const out = JSON.parse(await file.text()) as { manifest?: unknown; signature?: unknown };
      if (typeof out.manifest !== 'string' || typeof out.signature !== 'string') throw new Error('not signed');
      setManifest(out.manifest);
      setSignature(out.signature);
      setErrors((x) => ({ ...x, file: undefined, manifest: undefined, signature: undefined }));
    } catch {
      setErrors((x) => ({ ...x, file: t('firmware.signedFileInvalid') }));
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    setFailure(null);
    const checked = checkSigned(manifest, signature);
    const next: UploadErrors = {};
    if (checked.manifest) next.manifest = t(checked.manifest);
    if (checked.signature) next.signature = t(checked.signature);
    if (!image) next.image = t('firmware.imageRequired');
    else if (checked.size !== undefined && image.size !== checked.size)
      next.image = t('firmware.imageSizeMismatch', { actual: image.size, expected: checked.size });
    setErrors(next);
    if (Object.keys(next).length || !image) return;
    try {
      const id =
        created?.manifest === manifest
          ? created.id
          : (await create.mutateAsync({ manifest, signature: signature.trim() })).id;
      setCreated({ manifest, id });
      setProgress(0);
      await uploadFirmwareImage(id, image, setProgress);
      const m = firmwareManifestSchema.parse(JSON.parse(manifest));
      setDone(t('firmware.uploaded', { version: m.version, class: m.class }));
      setCreated(null);
      setManifest('');
      setSignature('');
      setImage(null);
    } catch (err) {
      setFailure(err);
    } finally {
      setProgress(null);
      void qc.invalidateQueries({ queryKey: ['admin'] });
    }
  };

  const cut = failure instanceof ApiError && (failure.code === 'auth/network-request-failed' || failure.status === 0);
  const busy = progress !== null || create.isPending;
  return (
    <section className="panel" aria-labelledby="upload-title">
      <h2 id="upload-title">{t('firmware.uploadTitle')}</h2>
      <p className="muted">{t('firmware.uploadHelp')}</p>
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <Field id="fw-signed" label={t('firmware.signedFile')} error={errors.file}>
          <input
            id="fw-signed"
            type="file"
            accept="application/json,.json,.txt"
            onChange={(e) => void onSignedFile(e)}
          />
        </Field>
        <Field id="fw-manifest" label={t('firmware.manifest')} error={errors.manifest}>
          <textarea
            id="fw-manifest"
            rows={4}
            spellCheck={false}
            autoComplete="off"
            value={manifest}
            onChange={(e) => setManifest(e.target.value)}
          />
        </Field>
        <Field id="fw-signature" label={t('firmware.signature')} error={errors.signature}>
          <input
            id="fw-signature"
            spellCheck={false}
            autoComplete="off"
            value={signature}
            onChange={(e) => setSignature(e.target.value)}
          />
        </Field>
        <Field id="fw-image" label={t('firmware.image')} error={errors.image}>
          <input id="fw-image" type="file" onChange={(e) => setImage(e.target.files?.[0] ?? null)} />
        </Field>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t('firmware.upload')}
        </button>
        {progress !== null && (
          <p role="status">
            <progress max={1} value={progress} aria-label={t('firmware.progress')} />{' '}
            {t('firmware.uploading', { pct: Math.round(progress * 100) })}
          </p>
        )}
        {cut ? (
          <p className="alert alert-error" role="alert">
            {t('firmware.uploadCut')}
          </p>
        ) : (
          <ErrorAlert error={failure} />
        )}
        {done && (
          <p className="alert alert-success" role="status">
            {done}
          </p>
        )}
      </form>
    </section>
  );
}

function Field(props: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      {props.children}
      {props.error && (
        <p id={`${props.id}-error`} className="field-error" role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}

function Images() {
  const t = useT();
  const list = useFirmwareList();
  const columns: Column<Firmware>[] = [
    { key: 'class', label: t('fleet.colClass'), value: (f) => f.class },
    { key: 'version', label: t('firmware.colVersion'), value: (f) => f.version },
    { key: 'seq', label: t('firmware.colSeq'), value: (f) => f.seq },
    { key: 'size', label: t('firmware.colSize'), value: (f) => f.size, render: (f) => byteSize(f.size) },
    {
      key: 'image',
      label: t('firmware.colImage'),
      value: (f) => (f.imageStored ? 1 : 0),
      render: (f) =>
        f.imageStored ? (
          t('firmware.imageStored')
        ) : (
          <>
            <span className="badge badge-warn">
              <span aria-hidden="true">⚠ </span>
              {t('firmware.imageWaiting')}
            </span>
            <ResendImage firmware={f} />
          </>
        ),
    },
    {
      key: 'created',
      label: t('firmware.colCreated'),
      value: (f) => f.createdAt,
      render: (f) => <time dateTime={f.createdAt}>{new Date(f.createdAt).toLocaleString()}</time>,
    },
  ];
  return (
    <section className="panel">
      <h2>{t('firmware.imagesTitle')}</h2>
      <SortableTable
        label={t('firmware.imagesTitle')}
        columns={columns}
        query={list}
        rowKey={(f) => f.id}
        empty={t('firmware.imagesEmpty')}
      />
    </section>
  );
}

/** The image of a manifest the server took but whose bytes never arrived (an upload cut half way, a closed tab). */
function ResendImage({ firmware: f }: { firmware: Firmware }) {
  const t = useT();
  const qc = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const onPick = async (e: ChangeEvent<HTMLInputElement>) => {
    const image = e.target.files?.[0];
    e.target.value = '';
    setError(null);
    setFailure(null);
    if (!image) return;
    if (image.size !== f.size)
      return setError(t('firmware.imageSizeMismatch', { actual: image.size, expected: f.size }));
    try {
      setProgress(0);
      await uploadFirmwareImage(f.id, image, setProgress);
    } catch (err) {
      setFailure(err);
    } finally {
      setProgress(null);
      void qc.invalidateQueries({ queryKey: ['admin'] });
    }
  };
  return (
    <span className="cell-note">
      <input
        type="file"
        aria-label={t('firmware.sendImage', { version: f.version })}
        disabled={progress !== null}
        onChange={(e) => void onPick(e)}
      />
      {progress !== null && <progress max={1} value={progress} aria-label={t('firmware.progress')} />}
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
      <ErrorAlert error={failure} />
    </span>
  );
}

const COHORTS = ['all', 'internal', 'beta'] as const;

function RolloutForm() {
  const t = useT();
  const images = useFirmwareList();
  const sellers = useAdminSellers();
  const create = useCreateRollout();
  const ready = (images.data ?? []).filter((f) => f.imageStored);
  const [firmwareId, setFirmwareId] = useState('');
  const [cohorts, setCohorts] = useState<Set<string>>(new Set(['all']));
  const [seller, setSeller] = useState('');
  const [numbers, setNumbers] = useState({ percent: '10', threshold: '20', minDevices: '5', minBattery: '30' });
  const [errors, setErrors] = useState<Partial<Record<'cohorts' | 'seller' | keyof typeof numbers, string>>>({});
  const [started, setStarted] = useState(false);
  const chosen = firmwareId || ready[0]?.id || '';

  if (images.isSuccess && ready.length === 0)
    return (
      <section className="panel" aria-labelledby="rollout-title">
        <h2 id="rollout-title">{t('firmware.rolloutTitle')}</h2>
        <p className="empty-state">{t('firmware.noReadyImage')}</p>
      </section>
    );

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setStarted(false);
    const next: typeof errors = {};
    const pct = (s: string) => (s.trim() !== '' && Number(s) >= 0 && Number(s) <= 100 ? Number(s) : null);
    const percent = pct(numbers.percent);
    const threshold = pct(numbers.threshold);
    const minBattery = pct(numbers.minBattery);
    const minDevices =
      /^\d+$/.test(numbers.minDevices.trim()) && Number(numbers.minDevices) >= 1 ? Number(numbers.minDevices) : null;
    if (percent === null) next.percent = t('firmware.pctInvalid');
    if (threshold === null) next.threshold = t('firmware.pctInvalid');
    if (minBattery === null) next.minBattery = t('firmware.pctInvalid');
    if (minDevices === null) next.minDevices = t('firmware.minDevicesInvalid');
    const list = [...cohorts].filter((c) => c !== 'seller');
    if (cohorts.has('seller')) {
      if (seller) list.push(`seller:${seller}`);
      else next.seller = t('firmware.sellerRequired');
    }
    if (cohorts.size === 0) next.cohorts = t('firmware.cohortsRequired');
    setErrors(next);
    if (Object.keys(next).length) return;
    create.mutate(
      {
        firmwareId: chosen,
        cohorts: list,
        percent: percent!,
        failureThresholdPct: threshold!,
        minDevices: minDevices!,
        minBatteryPct: minBattery!,
      },
      { onSuccess: () => setStarted(true) },
    );
  };

  const toggle = (c: string) =>
    setCohorts((s) => {
      const next = new Set(s);
      if (!next.delete(c)) next.add(c);
      return next;
    });
  const number = (key: keyof typeof numbers, label: string) => (
    <Field id={`ro-${key}`} label={label} error={errors[key]}>
      <input
        id={`ro-${key}`}
        inputMode="decimal"
        autoComplete="off"
        value={numbers[key]}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={errors[key] ? `ro-${key}-error` : undefined}
        onChange={(e) => setNumbers((n) => ({ ...n, [key]: e.target.value }))}
      />
    </Field>
  );

  return (
    <section className="panel" aria-labelledby="rollout-title">
      <h2 id="rollout-title">{t('firmware.rolloutTitle')}</h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor="ro-image">{t('firmware.rolloutImage')}</label>
          <select id="ro-image" value={chosen} onChange={(e) => setFirmwareId(e.target.value)}>
            {ready.map((f) => (
              <option key={f.id} value={f.id}>
                {f.version} ({f.class})
              </option>
            ))}
          </select>
        </div>
        <fieldset className="field cohorts" aria-describedby={errors.cohorts ? 'ro-cohorts-error' : undefined}>
          <legend>{t('firmware.cohorts')}</legend>
          {COHORTS.map((c) => (
            <label key={c} className="check">
              <input type="checkbox" checked={cohorts.has(c)} onChange={() => toggle(c)} /> {t(`firmware.cohort.${c}`)}
            </label>
          ))}
          <label className="check">
            <input type="checkbox" checked={cohorts.has('seller')} onChange={() => toggle('seller')} />{' '}
            {t('firmware.cohortSeller')}
          </label>
          {cohorts.has('seller') && (
            <Field id="ro-seller" label={t('admin.selectSeller')} error={errors.seller}>
              <select id="ro-seller" value={seller} onChange={(e) => setSeller(e.target.value)}>
                <option value="" />
                {(sellers.data ?? []).map((u) => (
                  <option key={u.email} value={u.email}>
                    {u.email}
                  </option>
                ))}
              </select>
            </Field>
          )}
          {errors.cohorts && (
            <p id="ro-cohorts-error" className="field-error" role="alert">
              {errors.cohorts}
            </p>
          )}
        </fieldset>
        {number('percent', t('firmware.percent'))}
        {number('threshold', t('firmware.threshold'))}
        {number('minDevices', t('firmware.minDevices'))}
        {number('minBattery', t('firmware.minBattery'))}
        <button type="submit" className="btn btn-primary" disabled={create.isPending || !chosen}>
          {t('firmware.start')}
        </button>
        <ErrorAlert error={create.error} />
        {started && (
          <p className="alert alert-success" role="status">
            {t('firmware.started')}
          </p>
        )}
      </form>
    </section>
  );
}

function Rollouts() {
  const t = useT();
  const rollouts = useRollouts();
  return (
    <section className="panel" aria-labelledby="rollouts-title">
      <h2 id="rollouts-title">{t('firmware.rolloutsTitle')}</h2>
      <QueryStatus query={rollouts}>
        {(list) =>
          list.length === 0 ? (
            <p className="empty-state">{t('firmware.rolloutsEmpty')}</p>
          ) : (
            <ul className="rollout-list">
              {list.map((r) => (
                <RolloutCard key={r.id} rollout={r} />
              ))}
            </ul>
          )
        }
      </QueryStatus>
    </section>
  );
}

const WIDEN_TO = [10, 25, 50, 100];

function cohortNames(t: Translate, cohorts: string[]): string {
  return cohorts
    .map((c) =>
      c === 'all' || c === 'internal' || c === 'beta' ? t(`firmware.cohort.${c}`) : c.replace(/^seller:/, ''),
    )
    .join(', ');
}

/** One rollout: its state, its funnel and failure codes, and each change one click away. */
function RolloutCard({ rollout: r }: { rollout: Rollout }) {
  const t = useT();
  const patch = usePatchRollout();
  const live = r.state === 'running' || r.state === 'paused';
  // A rollout done at its share opens again to a wider one.
  const widenable = live || r.state === 'done';
  const headingId = `rollout-${r.id}`;
  const steps = [
    ['offered', r.offered],
    ['downloaded', r.downloaded],
    ['confirmed', r.confirmed],
    ['failed', r.failed],
  ] as const;
  const failures = Object.entries(r.failures).sort((a, b) => b[1] - a[1]);
  return (
    <li className="rollout" data-state={r.state} aria-labelledby={headingId}>
      <h3 id={headingId}>
        {t('firmware.rolloutHeading', { version: r.version, class: r.class })}{' '}
        <span className={r.state === 'halted' ? 'badge badge-warn' : 'badge'} data-testid="rollout-state">
          {r.state === 'halted' && <span aria-hidden="true">⚠ </span>}
          {t('firmware.state', { state: r.state })}
        </span>
      </h3>
      <p>
        {t('firmware.scope', { percent: r.percent, cohorts: cohortNames(t, r.cohorts) })}.{' '}
        {t('firmware.rules', { threshold: r.failureThresholdPct, min: r.minDevices })}
      </p>
      {r.state === 'halted' && <p className="muted">{t('firmware.haltedNext')}</p>}
      {r.state === 'done' && <p className="muted">{t('firmware.doneNext')}</p>}
      {r.haltReason && (
        // The figures stored when it halted (later reports move the funnel, not the reason).
        <p className="alert alert-error">
          {t('firmware.haltReason', {
            failed: r.haltReason.failed,
            reports: r.haltReason.judged,
            share: Math.round((r.haltReason.failed / Math.max(1, r.haltReason.judged)) * 100),
            threshold: r.haltReason.threshold,
          })}
        </p>
      )}
      <ol className="funnel" aria-label={t('firmware.funnel', { version: r.version })}>
        {steps.map(([step, n]) => (
          <li key={step} data-step={step}>
            <span className="funnel-label">{t(`firmware.funnel.${step}`)}</span>{' '}
            <span className="funnel-count">{n}</span>
            <span className={`funnel-bar funnel-${step}`} aria-hidden="true">
              <span style={{ width: `${r.offered ? Math.min(100, (n / r.offered) * 100) : 0}%` }} />
            </span>
          </li>
        ))}
      </ol>
      <h4>{t('firmware.failures')}</h4>
      {failures.length === 0 ? (
        <p className="muted">{t('firmware.noFailures')}</p>
      ) : (
        <ul className="failure-codes">
          {failures.map(([code, n]) => (
            <li key={code}>
              <code>{code}</code>: {n}
            </li>
          ))}
        </ul>
      )}
      {widenable && (
        <div className="actions-row">
          {r.state === 'done' ? null : r.state === 'running' ? (
            <button
              type="button"
              className="btn btn-secondary btn-small"
              disabled={patch.isPending}
              onClick={() => patch.mutate({ id: r.id, state: 'paused' })}
            >
              {t('firmware.pause')}
            </button>
          ) : (
            <button
              type="button"
              className="btn btn-secondary btn-small"
              disabled={patch.isPending}
              onClick={() => patch.mutate({ id: r.id, state: 'running' })}
            >
              {t('firmware.resume')}
            </button>
          )}
          {WIDEN_TO.filter((p) => p > r.percent).map((percent) => (
            <button
              key={percent}
              type="button"
              className="btn btn-secondary btn-small"
              disabled={patch.isPending}
              onClick={() => patch.mutate({ id: r.id, percent })}
            >
              {t('firmware.widen', { percent })}
            </button>
          ))}
          {live && (
            <button
              type="button"
              className="btn btn-secondary btn-small"
              disabled={patch.isPending}
              // One click, as pause and resume (the word): no device is offered it again, and
              // what devices installed stays installed.
              onClick={() => patch.mutate({ id: r.id, state: 'aborted' })}
            >
              {t('firmware.abort')}
            </button>
          )}
        </div>
      )}
      <ErrorAlert error={patch.error} />
    </li>
  );
}

/** Who is in the internal and beta cohorts, and putting a user in one (or neither). */
function Cohorts() {
  const t = useT();
  const members = useCohortMembers();
  const users = useAdminUsers();
  const save = useSetCohort();
  const [email, setEmail] = useState('');
  const [cohort, setCohort] = useState<'' | 'internal' | 'beta'>('internal');
  const [missing, setMissing] = useState(false);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setMissing(!email);
    if (email) save.mutate({ email, cohort });
  };
  return (
    <section className="panel" aria-labelledby="cohorts-title">
      <h2 id="cohorts-title">{t('firmware.cohortsTitle')}</h2>
      <p className="muted">{t('firmware.cohortsHelp')}</p>
      <QueryStatus query={members}>
        {(list) =>
          list.length === 0 ? (
            <p className="empty-state">{t('firmware.cohortsEmpty')}</p>
          ) : (
            <ul className="cohort-members">
              {list.map((m) => (
                <li key={m.email}>
                  {m.email}: {m.cohort === 'beta' ? t('firmware.cohort.beta') : t('firmware.cohort.internal')}
                </li>
              ))}
            </ul>
          )
        }
      </QueryStatus>
      <form className="form" onSubmit={onSubmit} noValidate>
        <Field
          id="co-user"
          label={t('firmware.cohortUser')}
          error={missing ? t('firmware.cohortUserRequired') : undefined}
        >
          <select id="co-user" value={email} onChange={(e) => setEmail(e.target.value)}>
            <option value="" />
            {(users.data ?? []).map((u) => (
              <option key={u.email} value={u.email}>
                {u.email}
              </option>
            ))}
          </select>
        </Field>
        <div className="field">
          <label htmlFor="co-cohort">{t('firmware.cohortChoice')}</label>
          <select id="co-cohort" value={cohort} onChange={(e) => setCohort(e.target.value as typeof cohort)}>
            <option value="internal">{t('firmware.cohort.internal')}</option>
            <option value="beta">{t('firmware.cohort.beta')}</option>
            <option value="">{t('firmware.cohortNone')}</option>
          </select>
        </div>
        <button type="submit" className="btn btn-secondary" disabled={save.isPending}>
          {t('firmware.cohortSave')}
        </button>
        <ErrorAlert error={save.error} />
        {save.isSuccess && (
          <p className="alert alert-success" role="status">
            {t('firmware.cohortSaved')}
          </p>
        )}
      </form>
    </section>
  );
}

/** How many devices run each version, per hardware class, most first. */
function VersionSpread({ versions }: { versions: Fleet['versions'] }) {
  const t = useT();
  if (versions.length === 0) return <p className="empty-state">{t('firmware.spreadEmpty')}</p>;
  const total = versions.reduce((n, v) => n + v.devices, 0);
  const rows = [...versions].sort((a, b) => a.class.localeCompare(b.class) || b.devices - a.devices);
  return (
    <div className="table-scroll" role="region" aria-label={t('firmware.spreadTitle')} tabIndex={0}>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">{t('fleet.colClass')}</th>
            <th scope="col">{t('firmware.colVersion')}</th>
            <th scope="col">{t('firmware.colDevices')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((v) => (
            <tr key={`${v.class}|${v.version}`}>
              <td>{v.class || t('firmware.spreadUnknown')}</td>
              <td>{v.version || t('firmware.spreadUnknown')}</td>
              <td>
                <span className="spread-bar" aria-hidden="true">
                  <span style={{ width: `${(v.devices / total) * 100}%` }} />
                </span>{' '}
                {t('firmware.spreadDevices', { count: v.devices })}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
