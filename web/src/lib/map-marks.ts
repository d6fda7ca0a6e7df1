/** Marks drawn on the track maps (analytics, the admin's gate editor): one look for each. */

/** A filled disc with an outline: the cursor, a gate's handle. */
export function drawDot(ctx: CanvasRenderingContext2D, x: number, y: number, radius: number, fill = '#fff', stroke = '#000', width = 2): void {
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
