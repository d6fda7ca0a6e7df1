// The track outline page (/make): a session's fastest lap drawn as a closed outline, to rotate and zoom;
// before a session is chosen it shows the demo device's first track.
import { useEffect, useMemo, useRef, useState } from 'react';
import { analyzeGps } from '#core/analysis/gps-analysis.ts';
import { makeProjection } from '#core/geo.ts';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { SessionSelector } from '#web/components/session-selector.tsx';
import { Page } from '#web/components/ui/page.tsx';
import { useT } from '#web/i18n/messages.ts';
import { useGpsColumnsFor } from '#web/lib/gps-columns.ts';
import { oneDecimal } from '#web/lib/format.ts';
import { useMe } from '#web/lib/session.ts';
import { useDates, useTracks } from '#web/lib/sessions-api.ts';
import { ErrorAlert } from '#web/components/ui/query-status.tsx';

const MAKE = { width: 800, height: 600, degPerPx: 0.1, zoomStep: 0.1, zoomMin: 0.1, zoomMax: 5 } as const;

function clampZoom(z: number): number {
  return Math.min(MAKE.zoomMax, Math.max(MAKE.zoomMin, Math.round(z * 10) / 10));
}

/**
 * The spec's drawing page: the closed outline of a lap's coordinates on an 800x600 canvas.
 * Dragging sideways rotates 0.1° per pixel; Ctrl + wheel zooms in steps of 0.1 within 0.1..5;
 * a red square stands in when there are no points.
 */
export function MakePage() {
  const t = useT();
  const me = useMe().data!;
  const devices = [...new Set([...me.devices, me.demoDevice])];
  const demoTracks = useTracks(me.demoDevice);
  const firstTrack = demoTracks.data?.tracks[0];
  const demoDates = useDates(me.demoDevice, firstTrack);
  const [chosen, setChosen] = useState<SessionAddress | null>(null);
  const fallback =
    firstTrack && demoDates.data?.dates[0]
      ? { device: me.demoDevice, track: firstTrack, date: demoDates.data.dates[0] }
      : null;
  const session = chosen ?? fallback;
  const gps = useGpsColumnsFor(session);

  const points = useMemo((): [number, number][] => {
    const c = gps.data;
    if (!c || c.count === 0) return [];
    const laps = analyzeGps(c).laps.filter((l) => !l.outLap);
    const lap = laps.length ? laps.reduce((a, b) => (b.durationMs < a.durationMs ? b : a)) : undefined;
    if (!lap) return [];
    const proj = makeProjection(c.lat[lap.start]!, c.lon[lap.start]!);
    const out: [number, number][] = [];
    for (let i = lap.start; i < lap.end; i++) out.push(proj.toXY(c.lat[i]!, c.lon[i]!));
    return out;
  }, [gps.data]);

  const [rotation, setRotation] = useState(0);
  const [zoom, setZoom] = useState(1);
  const canvas = useRef<HTMLCanvasElement>(null);
  const drag = useRef<number | null>(null);

  useEffect(() => {
    const ctx = canvas.current!.getContext('2d')!;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#101012';
    ctx.fillRect(0, 0, MAKE.width, MAKE.height);
    if (points.length < 2) {
      ctx.fillStyle = '#d32f2f';
      ctx.fillRect(MAKE.width / 2 - 50, MAKE.height / 2 - 50, 100, 100);
      return;
    }
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    for (const [x, y] of points) {
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
    const fit = 0.9 * Math.min(MAKE.width / (maxX - minX || 1), MAKE.height / (maxY - minY || 1));
    const cx = (minX + maxX) / 2;
    const cy = (minY + maxY) / 2;
    ctx.translate(MAKE.width / 2, MAKE.height / 2);
    ctx.rotate((rotation * Math.PI) / 180);
    ctx.scale(fit * zoom, -fit * zoom);
    ctx.lineWidth = 6 / (fit * zoom);
    ctx.lineJoin = 'round';
    ctx.strokeStyle = '#f5f5f5';
    ctx.beginPath();
    points.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x - cx, y - cy) : ctx.lineTo(x - cx, y - cy)));
    ctx.closePath();
    ctx.stroke();
  }, [points, rotation, zoom]);

  // Ctrl + wheel must not zoom the page: a non-passive listener.
  useEffect(() => {
    const el = canvas.current!;
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      setZoom((z) => clampZoom(z + (e.deltaY < 0 ? MAKE.zoomStep : -MAKE.zoomStep)));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);
  return (
    <Page
      title={t('make.title')}
      menu={[
        { to: '/user', label: t('menu.home') },
        { to: '/laps', label: t('menu.laps') },
      ]}
    >
      <SessionSelector
        key={session ? `${session.device}/${session.track}/${session.date}` : 'none'}
        devices={devices}
        initial={session ?? {}}
        onLoad={setChosen}
      />
      <p className="muted">{t('make.help')}</p>
      <ErrorAlert error={gps.error} />
      <p className="make-state" aria-live="polite">
        {t('make.rotation', { deg: oneDecimal(rotation) })} · {t('make.zoom', { zoom: oneDecimal(zoom) })}
        {points.length < 2 && !gps.isFetching && <> · {t('make.noPoints')}</>}
      </p>
      <canvas
        ref={canvas}
        width={MAKE.width}
        height={MAKE.height}
        className="make-canvas"
        data-testid="make-canvas"
        data-rotation={rotation.toFixed(1)}
        data-zoom={zoom.toFixed(1)}
        data-points={points.length}
        tabIndex={0}
        role="img"
        aria-label={t('make.canvasLabel')}
        onPointerDown={(e) => {
          drag.current = e.clientX;
          e.currentTarget.setPointerCapture(e.pointerId);
        }}
        onPointerMove={(e) => {
          if (drag.current === null) return;
          // 0.1° per pixel the finger or mouse moves sideways.
          const dx = e.clientX - drag.current;
          drag.current = e.clientX;
          setRotation((r) => r + dx * MAKE.degPerPx);
        }}
        onPointerUp={() => (drag.current = null)}
        onPointerCancel={() => (drag.current = null)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowLeft') setRotation((r) => r - 10 * MAKE.degPerPx);
          else if (e.key === 'ArrowRight') setRotation((r) => r + 10 * MAKE.degPerPx);
          else if (e.key === '+' || e.key === '=') setZoom((z) => clampZoom(z + MAKE.zoomStep));
          else if (e.key === '-') setZoom((z) => clampZoom(z - MAKE.zoomStep));
          else return;
          e.preventDefault();
        }}
      />
    </Page>
  );
}
