/**
 * Draws the data over one frame of an exported clip (in the export worker): the lap and its time
 * running, speed, lean, the gap to the best lap, and a small map with the position. Sized from
 * the frame's height so 720p and 1080p look alike.
 */
import { formatLapTime } from '#core/formats/lap-six.ts';
import { formatGap } from '#web/lib/format.ts';
import { lean, type LeanSides } from '#web/lib/format.ts';
import { overlayAt, type ClipOverlay } from './clip-data';

export interface OverlayLabels {
  lap: string;
  speed: string;
  lean: string;
  /** The page's lean side letters (the worker has no catalog). */
  leanSides: LeanSides;
  delta: string;
}

/** The strip along the top of the data panel, in the rider's best-lap purple: also what a test looks for. */
const OVERLAY_MARK = { colour: '#b388ff', rgb: [0xb3, 0x88, 0xff] as const };

/** Where the data panel sits on a frame of `height` (for the test that reads it back). */
function overlayPanel(height: number) {
  const s = height / 720;
  return {
    x: Math.round(16 * s),
    y: Math.round(height - 176 * s),
    w: Math.round(440 * s),
    h: Math.round(160 * s),
    strip: Math.round(10 * s),
  };
}

type Ctx = OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;

export function drawOverlay(
  ctx: Ctx,
  o: ClipOverlay,
  labels: OverlayLabels,
  ms: number,
  width: number,
  height: number,
): void {
  const at = overlayAt(o, ms);
  const s = height / 720;
  const p = overlayPanel(height);
  ctx.save();
  ctx.fillStyle = 'rgba(0, 0, 0, 0.62)';
  ctx.fillRect(p.x, p.y, p.w, p.h);
  ctx.fillStyle = OVERLAY_MARK.colour;
  ctx.fillRect(p.x, p.y, p.w, p.strip);
  ctx.textBaseline = 'alphabetic';
  const left = p.x + 14 * s;
  if (at) {
    ctx.fillStyle = '#fff';
    ctx.font = `600 ${22 * s}px system-ui, sans-serif`;
    const lapTitle = at.lapName ? labels.lap.replace('{lap}', at.lapName) : '';
    ctx.fillText(lapTitle, left, p.y + 40 * s);
    ctx.font = `700 ${30 * s}px ui-monospace, monospace`;
    ctx.fillText(at.lapS !== null ? formatLapTime(at.lapS * 1000) : '--:--.---', left + 130 * s, p.y + 42 * s);
    ctx.font = `800 ${56 * s}px system-ui, sans-serif`;
    const speed = String(Math.round(at.speed));
    ctx.fillText(speed, left, p.y + 104 * s);
    const speedW = ctx.measureText(speed).width;
    ctx.font = `500 ${22 * s}px system-ui, sans-serif`;
    ctx.fillText(labels.speed, left + speedW + 8 * s, p.y + 104 * s);
    if (o.leanRecorded) ctx.fillText(`${labels.lean} ${lean(at.roll, labels.leanSides)}`, left + 180 * s, p.y + 80 * s);
    if (at.delta !== null) {
      ctx.fillStyle = at.delta > 0 ? '#ff8a80' : '#69f0ae';
      ctx.fillText(`${labels.delta} ${formatGap(at.delta)}`, left + 180 * s, p.y + 108 * s);
    }
    if (o.leanRecorded) {
      // Lean as a bar from the middle: left of centre for a left lean.
      const barY = p.y + 132 * s;
      const mid = p.x + p.w / 2;
      const half = (p.w - 28 * s) / 2;
      ctx.fillStyle = 'rgba(255,255,255,0.25)';
      ctx.fillRect(p.x + 14 * s, barY, p.w - 28 * s, 8 * s);
      ctx.fillStyle = '#ffd54f';
      const lw = (Math.max(-60, Math.min(60, at.roll)) / 60) * half;
      ctx.fillRect(Math.min(mid, mid + lw), barY, Math.abs(lw), 8 * s);
    }
  }
  // The small map, top right.
  const m = 180 * s;
  const mx = width - m - 16 * s;
  const my = 16 * s;
  ctx.fillStyle = 'rgba(0, 0, 0, 0.5)';
  ctx.fillRect(mx, my, m, m);
  const pad = 12 * s;
  const toPx = (x: number, y: number): [number, number] => [mx + pad + x * (m - 2 * pad), my + pad + y * (m - 2 * pad)];
  if (o.outline.length >= 4) {
    ctx.strokeStyle = 'rgba(255,255,255,0.85)';
    ctx.lineWidth = 3 * s;
    ctx.lineJoin = 'round';
    ctx.beginPath();
    ctx.moveTo(...toPx(o.outline[0]!, o.outline[1]!));
    for (let k = 2; k < o.outline.length; k += 2) ctx.lineTo(...toPx(o.outline[k]!, o.outline[k + 1]!));
    ctx.closePath();
    ctx.stroke();
  }
  if (at) {
    const [dx, dy] = toPx(at.x, at.y);
    ctx.fillStyle = '#ffd54f';
    ctx.strokeStyle = '#000';
    ctx.lineWidth = 2 * s;
    ctx.beginPath();
    ctx.arc(dx, dy, 7 * s, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
  }
  ctx.restore();
}
