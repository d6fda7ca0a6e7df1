// The rider's profile page (/enroll): the Wi-Fi network and password, rider name and bike number their
// device loads, checked here with the same schema as the server; and revoking a lost device's upload token.
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { PROFILE_LIMITS, profileInputSchema, type Me, type ProfileInput } from '#core/contracts/me.contract.ts';
import { Page } from '#web/components/ui/page.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { fieldMessage, useT } from '#web/i18n/messages.ts';
import { timeAgo } from '#web/lib/fleet-format.ts';
import { useMe } from '#web/lib/session.ts';
import { useRevokeDeviceToken, useSaveProfile } from './enroll.api';
import { ErrorAlert } from '#web/components/ui/query-status.tsx';

type Field = keyof ProfileInput;
const FIELDS: Field[] = ['wifi', 'senha', 'nomePiloto', 'numeroMoto'];

export function EnrollPage() {
  const t = useT();
  const me = useMe().data!;
  const navigate = useNavigate();
  const save = useSaveProfile();
  const [values, setValues] = useState<ProfileInput>({ ...me.profile });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [showSenha, setShowSenha] = useState(false);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = profileInputSchema.safeParse(values);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        next[field] ??= fieldMessage(t, issue.message);
      }
      setErrors(next);
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: () => void navigate('/user'),
      onError: (err) => {
        if (err instanceof ApiError && Object.keys(err.fields).length) {
          setErrors(
            Object.fromEntries(FIELDS.filter((f) => err.fields[f]).map((f) => [f, fieldMessage(t, err.fields[f])])),
          );
        }
      },
    });
  };

  const field = (
    name: Field,
    label: string,
    extra: { type?: string; autoComplete?: string; inputMode?: 'numeric' | 'text' } = {},
  ) => (
    <div className="field">
      <label htmlFor={`f-${name}`}>{label}</label>
      <input
        id={`f-${name}`}
        name={name}
        type={extra.type ?? 'text'}
        autoComplete={extra.autoComplete ?? 'off'}
        inputMode={extra.inputMode}
        maxLength={PROFILE_LIMITS[name]}
        required
        value={values[name]}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `e-${name}` : undefined}
        onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
      />
      {errors[name] && (
        <p id={`e-${name}`} className="field-error" role="alert">
          {errors[name]}
        </p>
      )}
    </div>
  );

  return (
    <Page title={t('enroll.title')} menu={[{ to: '/user', label: t('menu.home') }]}>
      <p>{t('enroll.intro')}</p>
      <form className="form" onSubmit={onSubmit} noValidate>
        {field('wifi', t('enroll.wifi'))}
        <div className="field">
          <label htmlFor="f-senha">{t('enroll.senha')}</label>
          <input
            id="f-senha"
            name="senha"
            type={showSenha ? 'text' : 'password'}
            autoComplete="off"
            maxLength={PROFILE_LIMITS.senha}
            required
            title={t('enroll.senhaHint')}
            placeholder={showSenha ? '' : t('enroll.senhaHint')}
            value={values.senha}
            aria-invalid={errors.senha ? true : undefined}
            aria-describedby={errors.senha ? 'e-senha' : 'h-senha'}
            onClick={() => setShowSenha(true)}
            onChange={(e) => setValues((v) => ({ ...v, senha: e.target.value }))}
          />
          {!showSenha && (
            <button type="button" id="h-senha" className="btn-link" onClick={() => setShowSenha(true)}>
              {t('enroll.senhaHint')}
            </button>
          )}
          {errors.senha && (
            <p id="e-senha" className="field-error" role="alert">
              {errors.senha}
            </p>
          )}
        </div>
        {field('nomePiloto', t('enroll.nomePiloto'), { autoComplete: 'name' })}
        {field('numeroMoto', t('enroll.numeroMoto'), { inputMode: 'numeric' })}
        {save.isError && !(save.error instanceof ApiError && Object.keys(save.error.fields).length) && (
          <ErrorAlert error={save.error} />
        )}
        <button type="submit" className="btn btn-primary" disabled={save.isPending} aria-busy={save.isPending}>
          {save.isPending ? t('enroll.saving') : t('enroll.save')}
        </button>
      </form>
      <MyDevices devices={me.ownedDevices} />
    </Page>
  );
}

/** The devices I own: the firmware each runs and when it last talked to the server; a way to revoke one's token (lost or stolen). */
function MyDevices({ devices }: { devices: Me['ownedDevices'] }) {
  const t = useT();
  const now = Date.now();
  const revoke = useRevokeDeviceToken();
  const [revoked, setRevoked] = useState<string | null>(null);
  return (
    <section className="my-devices" aria-labelledby="my-devices-title">
      <h2 id="my-devices-title">{t('enroll.devicesTitle')}</h2>
      {devices.length === 0 ? (
        <p className="muted">{t('enroll.devicesEmpty')}</p>
      ) : (
        <ul className="device-list">
          {devices.map((d) => (
            <li key={d.id}>
              <span>
                <strong>{d.id}</strong>: {d.hasToken ? t('enroll.deviceHasToken') : t('enroll.deviceNoToken')}
                <span className="device-contact" data-testid="device-contact">
                  {d.version ? t('enroll.deviceFirmware', { version: d.version }) : t('enroll.deviceNoFirmware')}
                  {' · '}
                  {d.lastSeenAt ? (
                    <time dateTime={d.lastSeenAt} title={new Date(d.lastSeenAt).toLocaleString()}>
                      {t('enroll.deviceLastContact', { when: timeAgo(d.lastSeenAt, now) })}
                    </time>
                  ) : (
                    t('enroll.deviceNeverContact')
                  )}
                </span>
              </span>
              {d.hasToken && (
                <button
                  type="button"
                  className="btn btn-secondary"
                  disabled={revoke.isPending}
                  onClick={() => {
                    if (!window.confirm(t('enroll.revokeConfirm', { id: d.id }))) return;
                    revoke.mutate(d.id, { onSuccess: () => setRevoked(d.id) });
                  }}
                >
                  {t('enroll.revokeToken')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {revoked && (
        <p role="status" className="notice">
          {t('enroll.revoked', { id: revoked })}
        </p>
      )}
      <ErrorAlert error={revoke.error} />
    </section>
  );
}
