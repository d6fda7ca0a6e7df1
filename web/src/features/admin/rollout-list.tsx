// The rollouts, each as a card: its state, its funnel and failure codes, and each change one click away.
import type { Rollout } from '#core/contracts/firmware.contract.ts';
import { ErrorAlert, QueryStatus } from '#web/components/ui/query-status.tsx';
import { useT, type Translate } from '#web/i18n/messages.ts';
import { usePatchRollout, useRollouts } from './firmware.api';

export function Rollouts() {
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
