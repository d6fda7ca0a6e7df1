// Why the time is lost (issue 62): the three tips that lead the session page, and the corner study
// inside "Where you lose time" (a sortable corner table, the g-g plot against the rider's envelope,
// speed and lean along the lap against the reference with the braking and throttle points marked).
import { useEffect, useMemo, useRef } from 'react';
import type { CoachingResponse } from '#core/contracts/tracks.contract.ts';
import type { Units } from '#core/units.ts';
import { speedIn } from '#core/units.ts';
import { KeptRoom } from '#web/components/ui/kept-room.tsx';
import { SortHeader, useSort } from '#web/components/ui/sortable.tsx';
import { useT } from '#web/i18n/messages.ts';
import { decimal, lean, speedTable } from '#web/lib/format.ts';
import { formatDistance } from '#web/lib/units-format.ts';
import { sizeMapCanvas } from '#web/lib/map-marks.ts';

export type CoachedCorner = CoachingResponse['corners'][number];

/**
 * At most three things to work on, the corners losing most first, each a sentence; a tap shows the
 * corner on the map and the charts and, with a video, plays it there. `coming`: the study is on its
 * way (it comes after the laps have painted): its room is kept, so the laps below do not move.
 */
export function CoachingTips(props: {
  data: CoachingResponse | undefined;
  coming: boolean;
  onCorner: (corner: CoachedCorner) => void;
}) {
  const t = useT();
  const { data } = props;
  if (!data) return props.coming ? <KeptRoom label={t('coach.title')} className="coaching-tips tips-room" /> : null;
  return (
    <section className="coaching-tips" aria-labelledby="coaching-title" data-testid="coaching-tips">
      <h2 id="coaching-title">{t('coach.title')}</h2>
      {data.tips.length === 0 && <p className="muted">{t('coach.none')}</p>}
      <ol className="loss-cards">
        {data.tips.map((tip) => {
          const corner = data.corners.find((c) => c.name === tip.corner);
          return (
            <li key={tip.corner}>
              <button
                type="button"
                className="loss-card tip-card"
                data-testid="coaching-tip"
                onClick={() => corner && props.onCorner(corner)}
                aria-label={`${tip.text}. ${t('coach.see', { corner: tip.corner })}`}
              >
                <span>{tip.text}</span>
                <small className="muted">{t('coach.see', { corner: tip.corner })}</small>
              </button>
            </li>
          );
        })}
      </ol>
      {data.leanSource === 'gps' && <p className="muted">{t('coach.leanFromGps')}</p>}
    </section>
  );
}

type SortKey = 'corner' | 'lost' | 'brake' | 'min' | 'throttle' | 'lean' | 'coast' | 'grip';

/** A number or '—'; the sort puts unknowns last. */
const orLast = (v: number | null, sign = 1) => (v === null ? Number.POSITIVE_INFINITY : sign * v);

/** A difference, or "the same" where it lies inside the accuracy. */
function Delta(props: { value: string | null; same: boolean }) {
  const t = useT();
  if (props.value === null) return null;
  return <small className="muted"> ({props.same ? `≈ ${t('coach.same')}` : props.value})</small>;
}

/** The corner table of the study: every figure against the reference, time lost first; each corner zooms the map and charts. */
function CornerStudyTable(props: {
  data: CoachingResponse;
  units: Units;
  focused: string | null;
  onCorner: (corner: CoachedCorner) => void;
}) {
  const t = useT();
  const { units } = props;
  const accessors = useMemo<Record<SortKey, (c: CoachedCorner) => number>>(
    () => ({
      corner: (c) => c.corner,
      lost: (c) => orLast(c.timeLostS, -1),
      brake: (c) => orLast(c.brakeDeltaM),
      min: (c) => orLast(c.minKmhDelta),
      throttle: (c) => orLast(c.throttleAtDeltaM),
      lean: (c) => orLast(c.maxLeanDeg, -1),
      coast: (c) => orLast(c.coastS, -1),
      grip: (c) => orLast(c.gripUsePct, -1),
    }),
    [],
  );
  // Time lost first: the corner losing most at the top.
  const { sorted, sort, toggle } = useSort<SortKey, CoachedCorner>(props.data.corners, accessors, {
    key: 'lost',
    dir: 'asc',
  });
  const signed = (v: number, text: string) => `${v > 0 ? '+' : v < 0 ? '−' : ''}${text}`;
  const header = (key: SortKey, label: string) => (
    <SortHeader key={key} label={label} column={key} sort={sort} onSort={toggle} />
  );
  return (
    <div className="table-scroll" role="region" aria-label={t('tracks.cornersTitle')} tabIndex={0}>
      <table className="data-table corner-table corner-study" data-testid="corner-study">
        <caption>{t('tracks.cornersTitle')}</caption>
        <thead>
          <tr>
            {header('corner', t('tracks.colCorner'))}
            {header('lost', t('coach.colLost'))}
            {header('brake', t('coach.colBrake'))}
            {header('min', t('coach.colMin'))}
            {header('throttle', t('coach.colThrottle'))}
            {header('lean', t('coach.colLean'))}
            {header('coast', t('coach.colCoast'))}
            {header('grip', t('coach.colGrip'))}
            <th scope="col">{t('coach.colSpread')}</th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((c) => (
            <tr key={c.name} className={props.focused === c.name ? 'row-focused' : ''} data-testid="corner-study-row">
              <th scope="row">
                <button
                  type="button"
                  className="link-button"
                  onClick={() => props.onCorner(c)}
                  aria-label={t('tracks.zoomTo', { n: c.corner })}
                >
                  {c.name}
                </button>
              </th>
              <td className={c.timeLostS !== null && c.timeLostS > props.data.timeAccuracyS ? 'delta-lost' : ''}>
                {c.timeLostS === null ? '—' : signed(c.timeLostS, decimal(Math.abs(c.timeLostS), 2))}
                {c.entryLostS !== null && (
                  <small className="muted">
                    {' '}
                    ({decimal(c.entryLostS, 2)} / {decimal(c.middleLostS!, 2)} / {decimal(c.exitLostS!, 2)})
                  </small>
                )}
              </td>
              <td>
                {c.brakeStartM === null ? '—' : formatDistance(c.brakeStartM, units)}
                <Delta
                  value={
                    c.brakeDeltaM === null
                      ? null
                      : `${signed(c.brakeDeltaM, formatDistance(Math.abs(c.brakeDeltaM), units))} ±${formatDistance(c.accuracyM, units)}`
                  }
                  same={c.verdicts.brake === 'same'}
                />
                {c.brakePeakG !== null && <small className="muted"> {decimal(c.brakePeakG, 2)} g</small>}
              </td>
              <td>
                {c.minKmh === null ? '—' : speedTable(c.minKmh, units)}
                <Delta
                  value={
                    c.minKmhDelta === null ? null : signed(c.minKmhDelta, speedTable(Math.abs(c.minKmhDelta), units))
                  }
                  same={c.verdicts.minSpeed === 'same'}
                />
              </td>
              <td>
                {c.throttleAtM === null ? '—' : formatDistance(c.throttleAtM, units)}
                <Delta
                  value={
                    c.throttleAtDeltaS === null
                      ? null
                      : `${signed(c.throttleAtDeltaS, decimal(Math.abs(c.throttleAtDeltaS), 1))} s`
                  }
                  same={c.verdicts.throttle === 'same'}
                />
              </td>
              <td>
                {c.maxLeanDeg === null ? '—' : lean(c.maxLeanDeg)}
                {c.leanAtThrottleDeg !== null && <small className="muted"> / {lean(c.leanAtThrottleDeg)}</small>}
              </td>
              <td>{c.coastS === null ? '—' : decimal(c.coastS, 1)}</td>
              <td>{c.gripUsePct === null ? '—' : `${c.gripUsePct} %`}</td>
              <td>
                {c.consistency?.brakeSpreadM != null ? `±${formatDistance(c.consistency.brakeSpreadM, units)}` : '—'}
                {c.consistency?.minSpreadKmh != null && (
                  <small className="muted"> ±{speedTable(c.consistency.minSpreadKmh, units)}</small>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A colour of the page's theme (a CSS variable, light or dark), resolved for what a canvas draws. */
function themeColour(el: Element, name: string, fallback: string): string {
  const probe = document.createElement('span');
  probe.style.color = `var(${name})`;
  el.parentElement?.appendChild(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour || fallback;
}

/** The lap's g-g points (lateral × longitudinal) inside the rider's envelope for the session. */
function GgPlot(props: { data: CoachingResponse }) {
  const t = useT();
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const { ctx, width, height } = sizeMapCanvas(el, 1, [], Math.min(el.parentElement?.clientWidth || 320, 360));
    const { lateral: lat, longitudinal: long, envelope } = props.data.gg;
    const lap = lat.map((a, k) => [a, long[k]!] as const);
    const limit = Math.max(1.2, ...envelope, ...lap.map(([a, b]) => Math.max(Math.abs(a), Math.abs(b))));
    const r = Math.min(width, height) / 2 - 8;
    const [cx, cy] = [width / 2, height / 2];
    const at = (lateral: number, longitudinal: number): [number, number] => [
      cx + (lateral / limit) * r,
      cy - (longitudinal / limit) * r,
    ];
    ctx.clearRect(0, 0, width, height);
    ctx.strokeStyle = themeColour(el, '--border-strong', '#888');
    ctx.lineWidth = 1;
    for (const g of [0.5, 1]) {
      ctx.beginPath();
      ctx.arc(cx, cy, (g / limit) * r, 0, 2 * Math.PI);
      ctx.stroke();
    }
    ctx.beginPath();
    ctx.moveTo(cx - r, cy);
    ctx.lineTo(cx + r, cy);
    ctx.moveTo(cx, cy - r);
    ctx.lineTo(cx, cy + r);
    ctx.stroke();
    ctx.fillStyle = themeColour(el, '--focus', '#3b82f6');
    for (const [lateral, longitudinal] of lap) {
      const [x, y] = at(lateral, longitudinal);
      ctx.fillRect(x - 1.5, y - 1.5, 3, 3);
    }
    // The envelope: each direction's best g (0: speeding up, clockwise).
    ctx.strokeStyle = themeColour(el, '--yellow', '#eab308');
    ctx.lineWidth = 2;
    ctx.beginPath();
    envelope.forEach((g, k) => {
      const angle = ((k + 0.5) * 2 * Math.PI) / envelope.length;
      const [x, y] = at(g * Math.sin(angle), g * Math.cos(angle));
      if (k === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    });
    ctx.closePath();
    ctx.stroke();
  }, [props.data]);
  return (
    <figure className="coaching-chart" data-testid="gg-plot">
      <figcaption>{t('coach.ggTitle')}</figcaption>
      <canvas ref={canvas} role="img" aria-label={t('coach.ggLabel')} className="gg-canvas" />
      <p className="muted chart-legend">
        <span className="legend-lap">●</span> {t('coach.ggLap')} <span className="legend-envelope">◯</span>{' '}
        {t('coach.ggEnvelope')}
      </p>
    </figure>
  );
}

/**
 * Speed and lean along the track for the lap and the reference (solid and dashed), each corner's
 * braking and throttle points marked; zoomed to the focused corner when there is one.
 */
function CoachingProfile(props: { data: CoachingResponse; units: Units; range: [number, number] | null }) {
  const t = useT();
  const canvas = useRef<HTMLCanvasElement>(null);
  const { units } = props;
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const { ctx, width, height } = sizeMapCanvas(el, 0.6, [], el.parentElement?.clientWidth || 340);
    const { stepM, speed, lean: leanSeries } = props.data.profile;
    const x = speed[0].map((_, k) => k * stepM);
    const [from, to] = props.range ?? [0, x[x.length - 1] ?? 1];
    const inRange = x.map((d) => d >= from && d <= to);
    const speeds = speed.flat().filter((v, k): v is number => v !== null && inRange[k % x.length]!);
    const top = Math.max(50, ...speeds.map((v) => speedIn(v, units)));
    const half = height * 0.62;
    const px = (d: number) => ((d - from) / (to - from || 1)) * width;
    const py = (v: number) => half - (speedIn(v, units) / top) * (half - 6);
    const pl = (deg: number) => half + 8 + (1 - Math.min(65, Math.abs(deg)) / 65) * (height - half - 12);
    ctx.clearRect(0, 0, width, height);
    const lapColour = themeColour(el, '--focus', '#3b82f6');
    const refColour = themeColour(el, '--muted', '#999');
    const series = (values: (number | null)[], y: (v: number) => number, colour: string, dashed: boolean) => {
      ctx.strokeStyle = colour;
      ctx.lineWidth = 1.5;
      ctx.setLineDash(dashed ? [4, 3] : []);
      ctx.beginPath();
      let open = false;
      values.forEach((v, k) => {
        if (v === null || !inRange[k]) {
          open = false;
          return;
        }
        if (open) ctx.lineTo(px(x[k]!), y(v));
        else ctx.moveTo(px(x[k]!), y(v));
        open = true;
      });
      ctx.stroke();
    };
    series(speed[1], py, refColour, true);
    series(speed[0], py, lapColour, false);
    series(leanSeries[1], pl, refColour, true);
    series(leanSeries[0], pl, lapColour, false);
    ctx.setLineDash([]);
    // Braking (▼) and throttle (▲) points of the lap, and the reference's (hollow).
    const mark = (at: number | null, up: boolean, colour: string, hollow: boolean) => {
      if (at === null || at < from || at > to) return;
      const cx = px(at);
      const cy = up ? half - 4 : 8;
      ctx.beginPath();
      ctx.moveTo(cx - 5, up ? cy + 4 : cy - 4);
      ctx.lineTo(cx + 5, up ? cy + 4 : cy - 4);
      ctx.lineTo(cx, up ? cy - 4 : cy + 4);
      ctx.closePath();
      ctx.strokeStyle = colour;
      ctx.fillStyle = colour;
      if (hollow) ctx.stroke();
      else ctx.fill();
    };
    const brake = themeColour(el, '--red', '#dc2626');
    const throttle = themeColour(el, '--green', '#16a34a');
    for (const c of props.data.corners) {
      mark(c.brakeStartM, false, brake, false);
      mark(c.reference.brakeStartM, false, brake, true);
      mark(c.throttleAtM, true, throttle, false);
      mark(c.reference.throttleAtM, true, throttle, true);
    }
  }, [props.data, props.range, units]);
  return (
    <figure className="coaching-chart" data-testid="coaching-profile">
      <figcaption>{t('coach.profileTitle')}</figcaption>
      <canvas ref={canvas} role="img" aria-label={t('coach.profileLabel')} className="profile-canvas" />
      <p className="muted chart-legend">
        <span className="legend-brake">▼</span> {t('coach.brakeMark')} <span className="legend-throttle">▲</span>{' '}
        {t('coach.throttleMark')}
      </p>
    </figure>
  );
}

/** The corner study inside "Where you lose time": the table, then the profile and the g-g plot. */
export function CornerStudy(props: {
  data: CoachingResponse | undefined;
  units: Units;
  focused: string | null;
  range: [number, number] | null;
  onCorner: (corner: CoachedCorner) => void;
}) {
  const t = useT();
  if (!props.data) return null;
  return (
    <div className="corner-study-block">
      <CornerStudyTable data={props.data} units={props.units} focused={props.focused} onCorner={props.onCorner} />
      {props.data.leanSource === 'gps' && <p className="muted">{t('coach.leanFromGps')}</p>}
      <div className="coaching-charts">
        <CoachingProfile data={props.data} units={props.units} range={props.range} />
        <GgPlot data={props.data} />
      </div>
    </div>
  );
}
