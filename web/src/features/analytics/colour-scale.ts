/** Slow → fast: blue, cyan, green, yellow, red (readable in sunlight, with a legend). */
const STOPS: [number, [number, number, number]][] = [
  [0, [49, 99, 206]],
  [0.25, [0, 188, 212]],
  [0.5, [76, 175, 80]],
  [0.75, [255, 213, 79]],
  [1, [229, 57, 53]],
];

export function colourAt(t: number): string {
  const v = Math.max(0, Math.min(1, Number.isFinite(t) ? t : 0));
  for (let i = 1; i < STOPS.length; i++) {
    const [t1, c1] = STOPS[i]!;
    const [t0, c0] = STOPS[i - 1]!;
    if (v <= t1) {
      const f = (v - t0) / (t1 - t0);
      const c = c0.map((x, k) => Math.round(x + (c1[k]! - x) * f));
      return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
    }
  }
  return 'rgb(229, 57, 53)';
}

export const LEGEND_GRADIENT = `linear-gradient(to right, ${STOPS.map(([t]) => `${colourAt(t)} ${t * 100}%`).join(', ')})`;
