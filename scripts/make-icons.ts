// Draws the installable app's icons (web/public/icons/), the logo's red lap line on the dark
// face: run once when the logo changes (`npx tsx scripts/make-icons.ts`); the PNGs are committed.
import { writeFileSync } from 'node:fs';
import { Canvas, type Rgb } from '#server/lib/track-png.ts';

const FACE: Rgb = [17, 17, 17];
const RED: Rgb = [211, 47, 47];
const WHITE: Rgb = [255, 255, 255];

/** The logo's curve (logo.svg: M18 58 C 40 10, 70 10, 88 40 S 130 70, 150 30), in a 240 × 80 box. */
function curve(): [number, number][] {
  const cubic = (p0: number[], p1: number[], p2: number[], p3: number[], t: number): [number, number] => {
    const u = 1 - t;
    return [0, 1].map((i) => u ** 3 * p0[i]! + 3 * u * u * t * p1[i]! + 3 * u * t * t * p2[i]! + t ** 3 * p3[i]!) as [
      number,
      number,
    ];
  };
  const out: [number, number][] = [];
  for (let k = 0; k <= 40; k++) out.push(cubic([18, 58], [40, 10], [70, 10], [88, 40], k / 40));
  // S: the first control point mirrors the previous one about (88, 40).
  for (let k = 1; k <= 40; k++) out.push(cubic([88, 40], [106, 70], [130, 70], [150, 30], k / 40));
  return out;
}

/** `safe`: the share of the square the drawing keeps to (maskable icons are cropped to a circle). */
function icon(size: number, safe: number): Buffer {
  const c = new Canvas(size, size, FACE);
  const points = curve();
  const scale = (size * safe) / 150;
  const ox = (size - 150 * scale) / 2 - 9 * scale;
  const oy = (size - 60 * scale) / 2 - 10 * scale;
  const at = (p: [number, number]): [number, number] => [ox + p[0] * scale, oy + p[1] * scale];
  for (let k = 1; k < points.length; k++) c.line(at(points[k - 1]!), at(points[k]!), 5 * scale, RED);
  // The chequered flag at the line's end.
  const f = 6 * scale;
  const [fx, fy] = at([150, 18]);
  for (let r = 0; r < 4; r++)
    for (let q = 0; q < 2; q++) if ((r + q) % 2 === 0) c.disc([fx + q * f + f / 2, fy + r * f + f / 2], f / 2, WHITE);
  return c.png();
}

for (const [name, size, safe] of [
  ['icon-192.png', 192, 0.8],
  ['icon-512.png', 512, 0.8],
  ['icon-maskable-512.png', 512, 0.6],
] as const) {
  writeFileSync(`web/public/icons/${name}`, icon(size, safe));
}
