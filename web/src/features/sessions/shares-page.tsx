import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDdmmyyyy } from '#core/formats/dates.ts';
import { Page } from '#web/components/ui/page.tsx';
import { QueryStatus } from '#web/components/ui/query-status.tsx';
import { errorMessage, fill, t } from '#web/i18n/messages.ts';
import { revokeShare, useShares } from '#web/lib/history-api.ts';

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
  return (
    <Page
      title={h.sharesTitle}
      menu={[
        { to: '/user', label: t.menu.home },
        { to: '/sessoes', label: t.menu.minhasSessoes },
      ]}
    >
      <p className="muted">{h.shareExplain}</p>
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
      <QueryStatus query={shares} loading={h.sharesLoading}>
        {(data) =>
          data.shares.length === 0 ? (
            <p className="empty-state">{h.sharesEmpty}</p>
          ) : (
            <ul className="share-list" aria-label={h.sharesTitle}>
              {data.shares.map((s) => (
                <li key={s.id} className="panel share-item" data-testid="share-item">
                  <div>
                    <strong>{fill(h.sharesWhat, { track: s.track, date: formatDdmmyyyy(s.date) })}</strong> ·{' '}
                    {s.lap ? fill(h.sharesLap, { lap: s.lap }) : h.sharesWhole}
                    <div className="muted">
                      {fill(h.sharesCreated, { date: day(s.createdAt) })} ·{' '}
                      {s.expiresAt ? fill(h.sharesExpires, { date: day(s.expiresAt) }) : h.sharesNoExpiry}
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
          )
        }
      </QueryStatus>
    </Page>
  );
}
