import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessage, useT } from '#web/i18n/messages.ts';

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
  if (query.isPending)
    return (
      <p className="loading-inline" role="status">
        <span className="spinner" aria-hidden="true" /> {loading ?? t('admin.tableLoading')}
      </p>
    );
  if (query.isError)
    return (
      <p className="alert alert-error" role="alert">
        {errorMessage(t, query.error)}
      </p>
    );
  return <>{children(query.data)}</>;
}
