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
