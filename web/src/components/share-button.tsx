// The session's 'Compartilhar' button and its form: a read-only link, with an optional expiry.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { useT } from '../i18n/messages';
import { createShare } from '../lib/history-api';
import { ErrorAlert } from '#web/components/ui/query-status.tsx';
import { useCopy } from '#web/lib/clipboard.ts';

const EXPIRY_DAYS = [0, 1, 7, 30] as const;

/**
 * "Compartilhar": makes a read-only link to the session or one of its laps, with an optional
 * expiry. The link is shown once (only its hash is kept), with a copy button.
 */
export function ShareButton(props: { session: SessionAddress; laps: string[]; initialLap?: string | undefined }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [what, setWhat] = useState(props.initialLap ?? '');
  const [days, setDays] = useState<number>(0);
  const { copied, copy, reset } = useCopy();
  const make = useMutation({
    mutationFn: () =>
      createShare({ ...props.session, ...(what ? { lap: what } : {}), ...(days ? { expiresInDays: days } : {}) }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['shares'] }),
  });
  const close = () => {
    setOpen(false);
    make.reset();
    reset();
  };
  if (!open) {
    return (
      <button type="button" className="btn btn-secondary btn-small" onClick={() => setOpen(true)} aria-expanded={false}>
        {t('history.share')}
      </button>
    );
  }
  return (
    <section className="share-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('history.shareTitle')}</h2>
      <p className="muted">{t('history.shareExplain')}</p>
      {!make.data && (
        <>
          <label htmlFor={`${id}-what`}>{t('history.shareWhat')}</label>
          <select id={`${id}-what`} value={what} onChange={(e) => setWhat(e.target.value)}>
            <option value="">{t('history.shareSession')}</option>
            {props.laps.map((lap) => (
              <option key={lap} value={lap}>
                {t('history.shareLap', { lap })}
              </option>
            ))}
          </select>
          <label htmlFor={`${id}-days`}>{t('history.shareExpiry')}</label>
          <select id={`${id}-days`} value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {EXPIRY_DAYS.map((d) => (
              <option key={d} value={d}>
                {d === 0 ? t('history.shareNever') : t('history.shareDays', { count: d })}
              </option>
            ))}
          </select>
          <p className="actions-row">
            <button type="button" className="btn btn-primary" disabled={make.isPending} onClick={() => make.mutate()}>
              {make.isPending ? t('history.shareCreating') : t('history.shareCreate')}
            </button>
            <button type="button" className="btn btn-secondary" onClick={close}>
              {t('history.shareClose')}
            </button>
          </p>
        </>
      )}
      <ErrorAlert error={make.error} />
      {make.data && (
        <>
          <p role="status" className="alert alert-success">
            {t('history.shareCreated')}
          </p>
          <label htmlFor={`${id}-url`} className="visually-hidden">
            {t('history.shareTitle')}
          </label>
          <input
            id={`${id}-url`}
            className="share-url"
            type="text"
            readOnly
            value={make.data.url}
            data-testid="share-url"
            onFocus={(e) => e.target.select()}
          />
          <p className="actions-row">
            <button type="button" className="btn btn-primary" onClick={() => copy(make.data.url)}>
              {t('history.shareCopy')}
            </button>
            <Link className="btn btn-secondary" to="/links">
              {t('history.sharesTitle')}
            </Link>
            <button type="button" className="btn btn-secondary" onClick={close}>
              {t('history.shareClose')}
            </button>
          </p>
          {copied && <p role="status">{t('history.shareCopied')}</p>}
        </>
      )}
    </section>
  );
}
