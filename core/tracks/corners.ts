// A track's corners (T1…Tn), found from its line's curvature.
import { curvature, latLonAt, type TrackLine } from './track-line';
import type { LatLon } from './gate';

export interface Corner {
  /** T1…Tn in driving order from the start/finish. */
  number: number;
  direction: 'left' | 'right';
  /** Where it begins, its tightest point and where it ends: metres along the line from the start/finish. */
  startM: number;
  apexM: number;
  endM: number;
  apex: LatLon;
}

/** Tighter than this radius is a corner; it ends where the radius opens past EXIT_RADIUS_M. */
const ENTER_RADIUS_M = 200;
const EXIT_RADIUS_M = 300;
/** Two bends of one hand closer than this are one corner (a double apex). */
const JOIN_GAP_M = 25;
/** A bend that turns less than this is a kink of the straight, not a corner. */
const MIN_TURN_RAD = (25 * Math.PI) / 180;

interface Bend {
  from: number;
  to: number;
  sign: number;
}

/**
 * A track's corners from its line's curvature (an outline from the catalogue, or a rider's best
 * lap where there is none), numbered in driving order from the start/finish. The same line gives
 * the same corners, so a track's numbers stay the same from one day to the next.
 */
export function findCorners(line: TrackLine): Corner[] {
  const n = line.x.length;
  const kappa = curvature(line.x, line.y);
  const step = line.length / n;
  // Scan from the straightest point, so no corner is split where the line closes.
  let origin = 0;
  for (let i = 1; i < n; i++) if (Math.abs(kappa[i]!) < Math.abs(kappa[origin]!)) origin = i;
  const bends: Bend[] = [];
  let open: Bend | undefined;
  for (let k = 1; k <= n; k++) {
    const i = (origin + k) % n;
    const c = kappa[i]!;
    const sign = Math.sign(c);
    if (open && (Math.abs(c) < 1 / EXIT_RADIUS_M || sign !== open.sign)) {
      bends.push(open);
      open = undefined;
    }
    if (!open && Math.abs(c) > 1 / ENTER_RADIUS_M) open = { from: origin + k, to: origin + k, sign };
    if (open) open.to = origin + k;
  }
  if (open) bends.push(open);

  const joined: Bend[] = [];
  for (const b of bends) {
    const last = joined[joined.length - 1];
    if (last && last.sign === b.sign && (b.from - last.to) * step < JOIN_GAP_M) last.to = b.to;
    else joined.push({ ...b });
  }

  const corners = joined
    .map((b) => {
      let turn = 0;
      let apex = b.from;
      for (let k = b.from; k <= b.to; k++) {
        const c = kappa[k % n]!;
        turn += c * step;
        if (Math.abs(c) > Math.abs(kappa[apex % n]!)) apex = k;
      }
      return { b, turn, apex: apex % n };
    })
    .filter((c) => Math.abs(c.turn) >= MIN_TURN_RAD)
    .map(({ b, apex }) => ({
      direction: b.sign > 0 ? ('left' as const) : ('right' as const),
      startM: line.s[b.from % n]!,
      apexM: line.s[apex]!,
      endM: line.s[b.to % n]!,
      apex: latLonAt(line, apex),
    }))
    // A corner that runs across the start/finish is counted where it ends.
    .map((c) => (c.startM > c.endM ? { ...c, startM: c.startM - line.length } : c))
    .sort((a, b) => a.startM - b.startM);
  return corners.map((c, k) => ({ number: k + 1, ...c }));
}
