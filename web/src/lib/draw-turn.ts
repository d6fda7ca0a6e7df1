import { useEffect, useState } from 'react';

/**
 * Charts take turns to be drawn, one a frame: three charts made in one task held a phone's main
 * thread for a fifth of a second, where one at a time it answers a tap between them.
 */
const waiting: (() => void)[] = [];
let drawing = false;

function next(): void {
  const go = waiting.shift();
  drawing = go !== undefined;
  if (!go) return;
  go();
  // The next one after this frame has painted (the timeout runs after it; the frame callback, before).
  requestAnimationFrame(() => setTimeout(next));
}

/** True once it is this chart's turn (and from then on); `wanted` false keeps it out of the queue. */
export function useDrawTurn(wanted: boolean): boolean {
  const [turn, setTurn] = useState(false);
  useEffect(() => {
    if (!wanted || turn) return;
    let live = true;
    const go = () => live && setTurn(true);
    waiting.push(go);
    if (!drawing) next();
    return () => {
      live = false;
      const at = waiting.indexOf(go);
      if (at >= 0) waiting.splice(at, 1);
    };
  }, [wanted, turn]);
  return turn;
}
