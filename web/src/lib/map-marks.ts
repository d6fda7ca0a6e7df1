/** Marks drawn on the track maps (analytics, the admin's gate editor): one look for each. */

/** A filled disc with an outline: the cursor, a gate's handle. */
export function drawDot(
  ctx: CanvasRenderingContext2D,
  x: number,
  y: number,
  radius: number,
  fill = '#fff',
  stroke = '#000',
  width = 2,
): void {
  ctx.fillStyle = fill;
  ctx.strokeStyle = stroke;
  ctx.lineWidth = width;
  ctx.beginPath();
  ctx.arc(x, y, radius, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
}

/** A corner's number at its apex: a dark disc with a light label, readable on any colour. */
export function drawCornerMark(ctx: CanvasRenderingContext2D, x: number, y: number, number: number): void {
  drawDot(ctx, x, y, 11, '#000c', '#fff', 1.5);
  ctx.font = 'bold 12px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#fff';
  ctx.fillText(`T${number}`, x, y + 0.5);
}

/**
 * Sizes map canvases to their CSS width (`cssWidth` when the caller knows it, else read from the
 * element) at `aspect` (height / width), in device pixels, and returns the first one's context
 * drawing in CSS pixels with its size. Layers over it get the same size. A canvas already of that
 * size keeps its backing store (setting its size clears and reallocates it).
 */
export function sizeMapCanvas(
  el: HTMLCanvasElement,
  aspect: number,
  layers: HTMLCanvasElement[] = [],
  cssWidth?: number,
) {
  const dpr = window.devicePixelRatio || 1;
  const width = cssWidth || el.clientWidth || 360;
  const height = Math.round(width * aspect);
  if (el.style.height !== `${height}px`) el.style.height = `${height}px`;
  for (const layer of [el, ...layers]) {
    const w = Math.round(width * dpr);
    const h = Math.round(height * dpr);
    if (layer.width !== w || layer.height !== h) [layer.width, layer.height] = [w, h];
  }
  const ctx = el.getContext('2d')!;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { ctx, width, height };
}
