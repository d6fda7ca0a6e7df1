import type { ComponentProps, ReactNode } from 'react';

/** One figure of a `<dl className="summary">`: its name (a hint in brackets), then its value (the other props). */
export function SummaryItem({
  label,
  hint,
  kind,
  ...value
}: ComponentProps<'dd'> & { label: ReactNode; hint?: string; kind?: 'best' | 'ideal' }) {
  return (
    <div className={kind ? `summary-item summary-${kind}` : 'summary-item'}>
      <dt>
        {label}
        {hint && (
          <>
            {' '}
            <small>({hint})</small>
          </>
        )}
      </dt>
      <dd {...value} />
    </div>
  );
}
