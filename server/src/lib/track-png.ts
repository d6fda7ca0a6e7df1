import { crc32, deflateSync } from 'node:zlib';

/** Open Graph's preferred size for a link preview. */
const PREVIEW_WIDTH = 1200;
const PREVIEW_HEIGHT = 630;

export type Rgb = readonly [number, number, number];
const BACKGROUND: Rgb = [17, 17, 17];
const TRACK: Rgb = [255, 213, 79];
const TEXT: Rgb = [244, 244, 244];
const START: Rgb = [129, 199, 132];

/**
 * A link preview for messaging apps (they take PNG, not SVG): the track's outline, its start/finish,
 * and a lap time drawn as seven-segment digits, as a lap timer shows it. No font needed.
 */
export function trackPreviewPng(outline: readonly (readonly [number, number])[], lapTime: string | null): Buffer {
  const img = new Canvas(PREVIEW_WIDTH, PREVIEW_HEIGHT, BACKGROUND);
  if (outline.length > 1) {
    const midLat = outline.reduce((a, p) => a + p[0], 0) / outline.length;
    const kx = Math.cos((midLat * Math.PI) / 180);
    const xs = outline.map((p) => p[1] * kx);
    const ys = outline.map((p) => -p[0]);
    const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    // The outline fits the left part (the time takes the bottom right), with a margin.
    const box = { x: 60, y: 60, w: lapTime ? 700 : PREVIEW_WIDTH - 120, h: PREVIEW_HEIGHT - 120 };
    const scale = Math.min(box.w / (maxX - minX || 1), box.h / (maxY - minY || 1));
    const at = (k: number): [number, number] => [
      box.x + (box.w - (maxX - minX) * scale) / 2 + (xs[k]! - minX) * scale,
      box.y + (box.h - (maxY - minY) * scale) / 2 + (ys[k]! - minY) * scale,
    ];
    for (let k = 0; k < outline.length; k++) img.line(at(k), at((k + 1) % outline.length), 6, TRACK);
    img.disc(at(0), 14, START);
  }
  // '01:45.123' as a lap timer shows it: '1:45.123'.
  if (lapTime) sevenSegment(img, lapTime.replace(/^0(\d:)/, '$1'), PREVIEW_WIDTH - 60, PREVIEW_HEIGHT - 80, 110);
  return img.png();
}

/** Segments a–g of each digit: a top, b top right, c bottom right, d bottom, e bottom left, f top left, g middle. */
const DIGITS: Record<string, string> = {
  '0': 'abcdef',
  '1': 'bc',
  '2': 'abged',
  '3': 'abgcd',
  '4': 'fgbc',
  '5': 'afgcd',
  '6': 'afgedc',
  '7': 'abc',
  '8': 'abcdefg',
  '9': 'abcdfg',
};

/** Draws `text` (digits, ':' and '.') right-aligned, its baseline at `bottom`, `height` px tall. */
function sevenSegment(img: Canvas, text: string, right: number, bottom: number, height: number): void {
  const w = height / 2;
  const gap = height / 5;
  const width = (c: string) => (c === ':' || c === '.' ? gap : w + gap);
  let x = right - [...text].reduce((a, c) => a + width(c), 0);
  const top = bottom - height;
  const t = height / 12;
  for (const c of text) {
    if (c === ':') {
      img.disc([x + gap / 3, top + height * 0.3], t * 0.8, TEXT);
      img.disc([x + gap / 3, top + height * 0.7], t * 0.8, TEXT);
    } else if (c === '.') {
      img.disc([x + gap / 3, bottom - t], t * 0.8, TEXT);
    } else {
      const on = DIGITS[c] ?? '';
      const [l, r, y0, ym, y1] = [x, x + w, top, top + height / 2, bottom];
      const seg: Record<string, [[number, number], [number, number]]> = {
        a: [
          [l, y0],
          [r, y0],
        ],
        b: [
          [r, y0],
          [r, ym],
        ],
        c: [
          [r, ym],
          [r, y1],
        ],
        d: [
          [l, y1],
          [r, y1],
        ],
        e: [
          [l, ym],
          [l, y1],
        ],
        f: [
          [l, y0],
          [l, ym],
        ],
        g: [
          [l, ym],
          [r, ym],
        ],
      };
      for (const s of on) img.line(seg[s]![0], seg[s]![1], t * 0.7, TEXT);
    }
    x += width(c);
  }
}

/** A plain RGB raster with discs and thick lines, written as PNG (icons, previews). */
export class Canvas {
  private readonly rgb: Buffer;
  constructor(
    readonly width: number,
    readonly height: number,
    fill: Rgb,
  ) {
    this.rgb = Buffer.alloc(width * height * 3);
    for (let i = 0; i < width * height; i++) this.rgb.set(fill, i * 3);
  }

  disc([cx, cy]: [number, number], r: number, colour: Rgb): void {
    for (let y = Math.max(0, Math.floor(cy - r)); y <= Math.min(this.height - 1, Math.ceil(cy + r)); y++) {
      for (let x = Math.max(0, Math.floor(cx - r)); x <= Math.min(this.width - 1, Math.ceil(cx + r)); x++) {
        if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r) this.rgb.set(colour, (y * this.width + x) * 3);
      }
    }
  }

  /** A line `r` px either side of its middle, with round ends. */
  line(a: [number, number], b: [number, number], r: number, colour: Rgb): void {
    const steps = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / Math.max(1, r / 2)));
    for (let s = 0; s <= steps; s++)
      this.disc([a[0] + ((b[0] - a[0]) * s) / steps, a[1] + ((b[1] - a[1]) * s) / steps], r, colour);
  }

  png(): Buffer {
    const rows = Buffer.alloc((this.width * 3 + 1) * this.height);
    for (let y = 0; y < this.height; y++)
      this.rgb.copy(rows, y * (this.width * 3 + 1) + 1, y * this.width * 3, (y + 1) * this.width * 3);
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter set, no interlace
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(rows)),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
