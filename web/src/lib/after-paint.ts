import { startTransition, useEffect, useState } from 'react';

/**
 * True from the frame after `ready` first became true has painted: a page shows its parts one
 * frame at a time (what the rider reads first, then what is drawn), each part's work in its own
 * task rather than one long one that a phone cannot answer a tap during. Set as a transition, so
 * React renders the revealed part in slices.
 */
export function useAfterPaint(ready: boolean): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!ready || shown) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // requestAnimationFrame runs before its frame paints; the timeout, after it.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setShown(true)));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [ready, shown]);
  return shown;
}
