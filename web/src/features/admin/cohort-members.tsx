// Who is in the internal and beta cohorts, and putting a user in one (or neither).
import { useState, type FormEvent } from 'react';
import { ErrorAlert, QueryStatus } from '#web/components/ui/query-status.tsx';
import { useT } from '#web/i18n/messages.ts';
import { useAdminUsers } from './admin.api';
import { useCohortMembers, useSetCohort } from './firmware.api';
import { Field } from './firmware-field';

/** Who is in the internal and beta cohorts, and putting a user in one (or neither). */
export function Cohorts() {
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
