import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { makeProjection } from '#core/geo.ts';
import type { Gate } from '#core/tracks/gate.ts';
import { useT } from '#web/i18n/messages.ts';
import { drawCornerMark, drawDot, sizeMapCanvas } from '#web/lib/map-marks.ts';

/** A handle is grabbed within this many CSS pixels (a thumb). */
const GRAB_PX = 24;
const MOVE_M = 1;
/** Metres shown either side of the gate. */
const VIEW_M = 80;
const TURN_RAD = (2 * Math.PI) / 180;

type Drag = 'a' | 'b' | 'both';

/**
 * The track's line and its start/finish gate on a canvas (north up). The gate's two ends and the
 * gate itself are dragged with a finger or the mouse; with the keyboard the arrows move it a
 * metre and [ ] turn it. `onChange` gets each new gate.
 */
export function GateEditor(props: {
  line: [number, number][];
  corners: { number: number; apex: { lat: number; lon: number } }[];
  gate: Gate;
  /** The track's other gates, drawn thin for reference. */
  others?: Gate[];
  onChange: (gate: Gate) => void;
}) {
  const t = useT();
  const { line, gate } = props;
  const canvas = useRef<HTMLCanvasElement>(null);
  const [handles, setHandles] = useState('');
  const centre = useRef<[number, number] | null>(null);
  const view = useRef({
    toPx: (x: number, y: number): [number, number] => [x, y],
    toXY: (px: number, py: number): [number, number] => [px, py],
  });
  const proj = useMemo(() => makeProjection(line[0]![0], line[0]![1]), [line]);
  const xy = useMemo(() => line.map(([lat, lon]) => proj.toXY(lat, lon)), [line, proj]);
  const ends = {
    a: proj.toXY(gate.a.lat, gate.a.lon),
    b: proj.toXY(gate.b.lat, gate.b.lon),
  };

  useEffect(() => {
    const { ctx, width, height } = sizeMapCanvas(canvas.current!, 0.8);
    ctx.fillStyle = '#101012';
    ctx.fillRect(0, 0, width, height);
    // Around the gate as it was first shown, VIEW_M either way: close enough for a finger to take
    // either end, and still while it is dragged.
    centre.current ??= [(ends.a[0] + ends.b[0]) / 2, (ends.a[1] + ends.b[1]) / 2];
    const [cx, cy] = centre.current;
    const [minX, maxX, minY, maxY] = [cx - VIEW_M, cx + VIEW_M, cy - VIEW_M, cy + VIEW_M];
    const pad = 24;
    const scale = Math.min((width - 2 * pad) / (maxX - minX || 1), (height - 2 * pad) / (maxY - minY || 1));
    const ox = (width - (maxX - minX) * scale) / 2;
    const oy = (height - (maxY - minY) * scale) / 2;
    view.current = {
      toPx: (x, y) => [ox + (x - minX) * scale, height - (oy + (y - minY) * scale)],
      toXY: (px, py) => [(px - ox) / scale + minX, (height - py - oy) / scale + minY],
    };
    const { toPx } = view.current;
    ctx.strokeStyle = '#6b6b75';
    ctx.lineWidth = 8;
    ctx.lineJoin = 'round';
    ctx.beginPath();
    xy.forEach(([x, y], i) => (i ? ctx.lineTo(...toPx(x, y)) : ctx.moveTo(...toPx(x, y))));
    ctx.closePath();
    ctx.stroke();
    for (const c of props.corners) drawCornerMark(ctx, ...toPx(...proj.toXY(c.apex.lat, c.apex.lon)), c.number);
    ctx.strokeStyle = '#ffd54f';
    ctx.lineWidth = 2;
    for (const other of props.others ?? []) {
      ctx.beginPath();
      ctx.moveTo(...toPx(...proj.toXY(other.a.lat, other.a.lon)));
      ctx.lineTo(...toPx(...proj.toXY(other.b.lat, other.b.lon)));
      ctx.stroke();
    }
    // The gate: a thick red line, white handles at its ends.
    const [ax, ay] = toPx(...ends.a);
    const [bx, by] = toPx(...ends.b);
    ctx.strokeStyle = '#ff5252';
    ctx.lineWidth = 5;
    ctx.beginPath();
    ctx.moveTo(ax, ay);
    ctx.lineTo(bx, by);
    ctx.stroke();
    setHandles([ax, ay, bx, by].map((v) => Math.round(v)).join(','));
    drawDot(ctx, ax, ay, 9);
    drawDot(ctx, bx, by, 9);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- ends derive from gate
  }, [xy, proj, gate, props.corners, props.others]);

  const toGate = (a: [number, number], b: [number, number]): Gate => {
    const [aLat, aLon] = proj.toLatLon(...a);
    const [bLat, bLon] = proj.toLatLon(...b);
    return { a: { lat: aLat, lon: aLon }, b: { lat: bLat, lon: bLon } };
  };

  const grab = (e: PointerEvent<HTMLCanvasElement>): Drag | null => {
    const [px, py] = pointerAt(e);
    const [ax, ay] = view.current.toPx(...ends.a);
    const [bx, by] = view.current.toPx(...ends.b);
    // The nearer end: on a phone a short line's two ends lie within one thumb of each other.
    const [toA, toB] = [Math.hypot(px - ax, py - ay), Math.hypot(px - bx, py - by)];
    if (Math.min(toA, toB) <= GRAB_PX) return toA <= toB ? 'a' : 'b';
    if (Math.hypot(px - (ax + bx) / 2, py - (ay + by) / 2) <= GRAB_PX + Math.hypot(bx - ax, by - ay) / 2) return 'both';
    return null;
  };
  // Each move is measured from where the drag began, against the ends as they were then: moves that
  // come faster than the page redraws (a quick flick) would otherwise be lost.
  const dragging = useRef<{ what: Drag; from: [number, number]; a: [number, number]; b: [number, number] } | null>(
    null,
  );
  const onDown = (e: PointerEvent<HTMLCanvasElement>) => {
    const what = grab(e);
    if (!what) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    dragging.current = { what, from: view.current.toXY(...pointerAt(e)), a: ends.a, b: ends.b };
  };
  const onMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const d = dragging.current;
    if (!d) return;
    const at = view.current.toXY(...pointerAt(e));
    const shift = (p: [number, number]): [number, number] => [p[0] + at[0] - d.from[0], p[1] + at[1] - d.from[1]];
    props.onChange(toGate(d.what === 'b' ? d.a : shift(d.a), d.what === 'a' ? d.b : shift(d.b)));
  };
  const onUp = () => {
    dragging.current = null;
  };
  const onKey = (e: KeyboardEvent<HTMLCanvasElement>) => {
    const moves: Record<string, [number, number]> = {
      ArrowUp: [0, MOVE_M],
      ArrowDown: [0, -MOVE_M],
      ArrowLeft: [-MOVE_M, 0],
      ArrowRight: [MOVE_M, 0],
    };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      props.onChange(toGate([ends.a[0] + move[0], ends.a[1] + move[1]], [ends.b[0] + move[0], ends.b[1] + move[1]]));
      return;
    }
    if (e.key === '[' || e.key === ']') {
      e.preventDefault();
      const angle = e.key === '[' ? TURN_RAD : -TURN_RAD;
      const [cx, cy] = [(ends.a[0] + ends.b[0]) / 2, (ends.a[1] + ends.b[1]) / 2];
      const turn = ([x, y]: [number, number]): [number, number] => [
        cx + (x - cx) * Math.cos(angle) - (y - cy) * Math.sin(angle),
        cy + (x - cx) * Math.sin(angle) + (y - cy) * Math.cos(angle),
      ];
      props.onChange(toGate(turn(ends.a), turn(ends.b)));
    }
  };

  return (
    <canvas
      ref={canvas}
      className="gate-canvas"
      data-testid="gate-editor"
      data-handles={handles}
      tabIndex={0}
      role="img"
      aria-label={t('admin.gateCanvas')}
      onPointerDown={onDown}
      onPointerMove={onMove}
      onPointerUp={onUp}
      onPointerCancel={onUp}
      onKeyDown={onKey}
    />
  );
}

/** Where the pointer is on the canvas, in its CSS pixels from the top left. */
function pointerAt(e: PointerEvent<HTMLCanvasElement>): [number, number] {
  const rect = e.currentTarget.getBoundingClientRect();
  return [e.clientX - rect.left, e.clientY - rect.top];
}
