import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { errorMessage, fill, t } from '../i18n/messages';
import { createShare } from '../lib/history-api';

const EXPIRY_DAYS = [0, 1, 7, 30] as const;

/**
 * "Compartilhar": makes a read-only link to the session or one of its laps, with an optional
 * expiry. The link is shown once (only its hash is kept), with a copy button.
 */
export function ShareButton(props: { session: SessionAddress; laps: string[]; initialLap?: string | undefined }) {
  const h = t.history;
  const id = useId();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [what, setWhat] = useState(props.initialLap ?? '');
  const [days, setDays] = useState<number>(0);
  const [copied, setCopied] = useState(false);
  const make = useMutation({
    mutationFn: () =>
      createShare({ ...props.session, ...(what ? { lap: what } : {}), ...(days ? { expiresInDays: days } : {}) }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['shares'] }),
  });
  const close = () => {
    setOpen(false);
    make.reset();
    setCopied(false);
  };
  if (!open) {
    return (
      <button type="button" className="btn btn-secondary btn-small" onClick={() => setOpen(true)} aria-expanded={false}>
        {h.share}
      </button>
    );
  }
  return (
    <section className="share-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{h.shareTitle}</h2>
      <p className="muted">{h.shareExplain}</p>
      {!make.data && (
        <>
          <label htmlFor={`${id}-what`}>{h.shareWhat}</label>
          <select id={`${id}-what`} value={what} onChange={(e) => setWhat(e.target.value)}>
            <option value="">{h.shareSession}</option>
            {props.laps.map((lap) => (
              <option key={lap} value={lap}>
                {fill(h.shareLap, { lap })}
              </option>
            ))}
          </select>
          <label htmlFor={`${id}-days`}>{h.shareExpiry}</label>
          <select id={`${id}-days`} value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {EXPIRY_DAYS.map((d) => (
              <option key={d} value={d}>
                {d === 0 ? h.shareNever : h.shareDays(d)}
              </option>
            ))}
          </select>
          <p className="actions-row">
            <button type="button" className="btn btn-primary" disabled={make.isPending} onClick={() => make.mutate()}>
              {make.isPending ? h.shareCreating : h.shareCreate}
            </button>
            <button type="button" className="btn btn-secondary" onClick={close}>
              {h.shareClose}
            </button>
          </p>
        </>
      )}
      {make.isError && (
        <p role="alert" className="alert alert-error">
          {errorMessage(make.error)}
        </p>
      )}
      {make.data && (
        <>
          <p role="status" className="alert alert-success">
            {h.shareCreated}
          </p>
          <label htmlFor={`${id}-url`} className="visually-hidden">
            {h.shareTitle}
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
            <button
              type="button"
              className="btn btn-primary"
              onClick={() =>
                void navigator.clipboard?.writeText(make.data.url).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              {h.shareCopy}
            </button>
            <Link className="btn btn-secondary" to="/links">
              {h.sharesTitle}
            </Link>
            <button type="button" className="btn btn-secondary" onClick={close}>
              {h.shareClose}
            </button>
          </p>
          {copied && <p role="status">{h.shareCopied}</p>}
        </>
      )}
    </section>
  );
}
