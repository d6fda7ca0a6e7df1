import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDdmmyyyy } from '../../../../core/formats/dates';
import { Page } from '../../components/ui/page';
import { errorMessage, fill, t } from '../../i18n/messages';
import { revokeShare, useShares } from '../../lib/history-api';

const day = (iso: string) => new Date(iso).toLocaleDateString('pt-BR');

/** 'Links compartilhados': the rider's links, each revocable at once (it stops opening anything, everywhere). */
export function SharesPage() {
  const h = t.history;
  const qc = useQueryClient();
  const shares = useShares();
  const [done, setDone] = useState(false);
  const revoke = useMutation({
    mutationFn: revokeShare,
    onSuccess: async () => {
      setDone(true);
      await qc.invalidateQueries({ queryKey: ['shares'] });
    },
  });
  const list = shares.data?.shares ?? [];
  return (
    <Page
      title={h.sharesTitle}
      menu={[
        { to: '/user', label: t.menu.home },
        { to: '/sessoes', label: t.menu.minhasSessoes },
      ]}
    >
      <p className="muted">{h.shareExplain}</p>
      {shares.isPending && (
        <p className="loading-inline" role="status">
          <span className="spinner" aria-hidden="true" /> {h.sharesLoading}
        </p>
      )}
      {shares.isError && (
        <p role="alert" className="alert alert-error">
          {errorMessage(shares.error)}
        </p>
      )}
      {revoke.isError && (
        <p role="alert" className="alert alert-error">
          {errorMessage(revoke.error)}
        </p>
      )}
      {done && !revoke.isPending && (
        <p role="status" className="alert alert-success">
          {h.revoked}
        </p>
      )}
      {shares.isSuccess && list.length === 0 && <p className="empty-state">{h.sharesEmpty}</p>}
      {list.length > 0 && (
        <ul className="share-list" aria-label={h.sharesTitle}>
          {list.map((s) => (
            <li key={s.id} className="panel share-item" data-testid="share-item">
              <div>
                <strong>{fill(h.sharesWhat, { track: s.track, date: formatDdmmyyyy(s.date) })}</strong> ·{' '}
                {s.lap ? fill(h.sharesLap, { lap: s.lap }) : h.sharesWhole}
                <div className="muted">
                  {fill(h.sharesCreated, { date: day(s.createdAt) })} · {s.expiresAt ? fill(h.sharesExpires, { date: day(s.expiresAt) }) : h.sharesNoExpiry}
                </div>
              </div>
              <button
                type="button"
                className="btn btn-secondary"
                disabled={revoke.isPending}
                onClick={() => {
                  if (!window.confirm(h.revokeConfirm)) return;
                  setDone(false);
                  revoke.mutate(s.id);
                }}
              >
                {revoke.isPending && revoke.variables === s.id ? h.revoking : h.revoke}
              </button>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
