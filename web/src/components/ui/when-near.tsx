import { useRef, type ReactNode } from 'react';
import { useNearViewport } from '#web/lib/near-viewport.ts';

/**
 * Renders `children` once the place they take comes within half a screen of the viewport (a long
 * table takes a moment to lay out; half a screen of scrolling covers it); until then,
 * an empty region of about their height (`height`, px) with their name, so the page neither
 * jumps nor lays out a long table far below what a phone shows.
 */
export function WhenNear(props: { height: number; label: string; children: ReactNode }) {
  const place = useRef<HTMLDivElement>(null);
  const near = useNearViewport(place, '50%');
  if (near) return props.children;
  // Focusable: a rider tabbing down the page lands here, the browser scrolls it near, and the next
  // Tab goes on into the content drawn in its place.
  return (
    <div
      ref={place}
      role="region"
      tabIndex={0}
      aria-label={props.label}
      aria-busy="true"
      style={{ minHeight: props.height }}
    />
  );
}

/**
 * The rows of a long table below its first screen (a full day's laps in a scroll box), drawn once
 * their place comes near the viewport: until then one empty row of about their height (`height`,
 * px; `columns` wide), in a tbody of its own that says it is busy. `rows` makes them when drawn.
 */
export function RowsWhenNear(props: { height: number; columns: number; rows: () => ReactNode }) {
  const place = useRef<HTMLTableSectionElement>(null);
  const near = useNearViewport(place, '50%');
  return (
    <tbody ref={place} aria-busy={!near}>
      {near ? (
        props.rows()
      ) : (
        <tr>
          <td colSpan={props.columns} style={{ height: props.height }} />
        </tr>
      )}
    </tbody>
  );
}
