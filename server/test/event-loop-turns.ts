/**
 * Counts the turns of the event loop another task gets (a setImmediate that schedules itself)
 * until `stop()`: a stream read through with no turn held every other request for its length.
 */
export function countTurns(): { readonly turns: number; stop(): void } {
  let turns = 0;
  let counting = true;
  const tick = () => {
    turns++;
    if (counting) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get turns() {
      return turns;
    },
    stop() {
      counting = false;
    },
  };
}
