// 'Links compartilhados': the rider's share links, each revocable at once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDdmmyyyy } from '#core/formats/dates.ts';
import { LinkActions } from '#web/components/link-actions.tsx';
import { Page } from '#web/components/ui/page.tsx';
import { ErrorAlert, QueryStatus } from '#web/components/ui/query-status.tsx';
import { queryKeys } from '#web/lib/query-keys.ts';
import { useT } from '#web/i18n/messages.ts';
import { revokeShare, useShares } from '#web/lib/history-api.ts';

/** dd/mm/yyyy (UX.md) in the rider's own time zone. */
const day = (iso: string) => new Date(iso).toLocaleDateString('pt-BR');

/** 'Links compartilhados': the rider's links, each revocable at once (it stops opening anything, everywhere). */
export function SharesPage() {
  const t = useT();
  const qc = useQueryClient();
  const shares = useShares();
  const [done, setDone] = useState(false);
  const revoke = useMutation({
    mutationFn: revokeShare,
    onSuccess: async () => {
      setDone(true);
      await qc.invalidateQueries({ queryKey: queryKeys.shares });
    },
  });
  return (
    <Page
      title={t('history.sharesTitle')}
      menu={[
        { to: '/user', label: t('menu.home') },
        { to: '/sessoes', label: t('menu.minhasSessoes') },
      ]}
    >
      <p className="muted">{t('history.shareExplain')}</p>
      <ErrorAlert error={revoke.error} />
      {done && !revoke.isPending && (
        <p role="status" className="alert alert-success">
          {t('history.revoked')}
        </p>
      )}
      <QueryStatus query={shares} loading={t('history.sharesLoading')}>
        {(data) =>
          data.shares.length === 0 ? (
            <p className="empty-state">{t('history.sharesEmpty')}</p>
          ) : (
            <ul className="share-list" aria-label={t('history.sharesTitle')}>
              {data.shares.map((s) => (
                <li key={s.id} className="panel share-item" data-testid="share-item">
                  <div>
                    {s.name && (
                      <strong className="share-name" data-testid="share-name">
                        {s.name}
                      </strong>
                    )}
                    <strong>{t('history.sharesWhat', { track: s.track, date: formatDdmmyyyy(s.date) })}</strong> ·{' '}
                    {s.lap ? t('history.sharesLap', { lap: s.lap }) : t('history.sharesWhole')}
                    <div className="muted">
                      {t('history.sharesCreated', { date: day(s.createdAt) })} ·{' '}
                      {s.expiresAt
                        ? t('history.sharesExpires', { date: day(s.expiresAt) })
                        : t('history.sharesNoExpiry')}
                    </div>
                  </div>
                  <p className="actions-row">
                    {s.url ? (
                      <LinkActions url={s.url} title={s.name ?? t('history.sharedTitle')} />
                    ) : (
                      <span className="muted">{t('history.sharesNoUrl')}</span>
                    )}
                    <button
                      type="button"
                      className="btn btn-secondary"
                      disabled={revoke.isPending}
                      onClick={() => {
                        if (!window.confirm(t('history.revokeConfirm'))) return;
                        setDone(false);
                        revoke.mutate(s.id);
                      }}
                    >
                      {revoke.isPending && revoke.variables === s.id ? t('history.revoking') : t('history.revoke')}
                    </button>
                  </p>
                </li>
              ))}
            </ul>
          )
        }
      </QueryStatus>
    </Page>
  );
}
