import type { ComponentProps, ReactNode } from 'react';

/**
 * One figure of a `<dl className="summary">`: its name (a hint in brackets), then its value (the
 * other props), and a muted note under it (on which lap).
 */
export function SummaryItem({
  label,
  hint,
  kind,
  note,
  ...value
}: ComponentProps<'dd'> & { label: ReactNode; hint?: string; kind?: 'best' | 'ideal'; note?: ReactNode }) {
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
      {note !== undefined && <dd className="muted">{note}</dd>}
    </div>
  );
}
