import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessage, useT } from '#web/i18n/messages.ts';

/** A line saying what is being loaded, with a spinner; screen readers announce it. */
export function Loading({ children }: { children: ReactNode }) {
  return (
    <p className="loading-inline" role="status">
      <span className="spinner" aria-hidden="true" /> {children}
    </p>
  );
}

/** The error in the rider's language; nothing while there is none (a query's or mutation's `error` is null). */
export function ErrorAlert({ error }: { error: unknown }) {
  const t = useT();
  if (error === null || error === undefined) return null;
  return (
    <p className="alert alert-error" role="alert">
      {errorMessage(t, error)}
    </p>
  );
}

/** Loading and error states for a list, then its content. */
export function QueryStatus<T>({
  query,
  loading,
  children,
}: {
  query: UseQueryResult<T>;
  loading?: string;
  children: (data: T) => ReactNode;
}) {
  const t = useT();
  if (query.isPending) return <Loading>{loading ?? t('admin.tableLoading')}</Loading>;
  if (query.isError) return <ErrorAlert error={query.error} />;
  return <>{children(query.data)}</>;
}
