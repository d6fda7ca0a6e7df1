import { errorMessage, useT } from '#web/i18n/messages.ts';

/**
 * Whole-page loading or error state, with a retry button for errors; `errorText` replaces the
 * message an error code would give.
 */
export function FullPageStatus(props: {
  loading?: boolean;
  error?: unknown;
  errorText?: string;
  onRetry?: () => void;
}) {
  const t = useT();
  if (props.loading) {
    return (
      <main className="page page-status" aria-busy="true">
        <div className="spinner" aria-hidden="true" />
        <p role="status">{t('app.loading')}</p>
      </main>
    );
  }
  return (
    <main className="page page-status">
      <p role="alert" className="alert alert-error">
        {props.errorText ?? errorMessage(t, props.error)}
      </p>
      {props.onRetry && (
        <button type="button" className="btn" onClick={props.onRetry}>
          {t('app.retry')}
        </button>
      )}
    </main>
  );
}
