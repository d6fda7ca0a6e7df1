// The session's 'Compartilhar' button and its form: a read-only link, with a name and an optional expiry.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { queryKeys } from '#web/lib/query-keys.ts';
import { useT } from '../i18n/messages';
import { createShare } from '../lib/history-api';
import { ErrorAlert } from '#web/components/ui/query-status.tsx';
import { LinkActions } from '#web/components/link-actions.tsx';
import { MAX_SHARE_NAME } from '#core/contracts/share-limits.ts';

const EXPIRY_DAYS = [0, 1, 7, 30] as const;

/**
 * "Compartilhar": makes a read-only link to the session or one of its laps, with a name its reader
 * sees and an optional expiry; then hands it to the phone's share sheet or the clipboard (it can be
 * copied again from 'Links compartilhados').
 */
export function ShareButton(props: { session: SessionAddress; laps: string[]; initialLap?: string | undefined }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [what, setWhat] = useState(props.initialLap ?? '');
  const [days, setDays] = useState<number>(0);
  const [name, setName] = useState('');
  const panel = useRef<HTMLElement>(null);
  // The panel opens where the button was, taller than it: brought whole into view (the phone's
  // fold was cutting it), its first choice focused.
  useEffect(() => {
    if (!open || !panel.current) return;
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    panel.current.scrollIntoView({ block: 'nearest', behavior: still ? 'auto' : 'smooth' });
    panel.current.querySelector('select')?.focus({ preventScroll: true });
  }, [open]);
  const make = useMutation({
    mutationFn: () =>
      createShare({
        ...props.session,
        ...(what ? { lap: what } : {}),
        ...(days ? { expiresInDays: days } : {}),
        ...(name.trim() ? { name: name.trim() } : {}),
      }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: queryKeys.shares }),
  });
  const close = () => {
    setOpen(false);
    make.reset();
  };
  if (!open) {
    return (
      <button type="button" className="btn btn-secondary btn-small" onClick={() => setOpen(true)} aria-expanded={false}>
        {t('history.share')}
      </button>
    );
  }
  return (
    <section ref={panel} className="share-panel" aria-labelledby={`${id}-title`}>
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
          <label htmlFor={`${id}-name`}>{t('history.shareName')}</label>
          <input
            id={`${id}-name`}
            type="text"
            value={name}
            maxLength={MAX_SHARE_NAME}
            aria-describedby={`${id}-name-hint`}
            onChange={(e) => setName(e.target.value)}
          />
          <p id={`${id}-name-hint`} className="muted">
            {t('history.shareNameHint')}
          </p>
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
            <LinkActions url={make.data.url} title={name.trim() || t('history.sharedTitle')} primary />
            <Link className="btn btn-secondary" to="/links">
              {t('history.sharesTitle')}
            </Link>
            <button type="button" className="btn btn-secondary" onClick={close}>
              {t('history.shareClose')}
            </button>
          </p>
        </>
      )}
    </section>
  );
}
