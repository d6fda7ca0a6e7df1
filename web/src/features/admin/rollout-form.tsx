// Starting a rollout: an image, its cohorts, a share of the fleet and a failure threshold.
import { useState, type FormEvent } from 'react';
import { ErrorAlert } from '#web/components/ui/query-status.tsx';
import { useT } from '#web/i18n/messages.ts';
import { useAdminSellers } from './admin.api';
import { useCreateRollout, useFirmwareList } from './firmware.api';
import { Field } from './firmware-field';

const COHORTS = ['all', 'internal', 'beta'] as const;

export function RolloutForm() {
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
