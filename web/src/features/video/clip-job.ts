// A clip's encoding in its worker (clip-worker.ts): started, followed, cancelled, and its answer
// (the MP4, or why not in the rider's words) as the panel's state.
import { useEffect, useRef, useState } from 'react';
import { useT } from '#web/i18n/messages.ts';
import type { ClipMessage, ClipRequest } from './clip-encode';

export type ClipState =
  | { kind: 'idle' }
  | { kind: 'working'; share: number }
  | { kind: 'done'; url: string; name: string; seconds: number; size: number; workMs: number }
  | { kind: 'message'; text: string };

export function useClipJob() {
  const t = useT();
  const [state, setState] = useState<ClipState>({ kind: 'idle' });
  const worker = useRef<Worker | null>(null);
  useEffect(
    () => () => {
      worker.current?.terminate();
    },
    [],
  );
  useEffect(() => () => void (state.kind === 'done' && URL.revokeObjectURL(state.url)), [state]);

  /** Encodes `request` into a file called `name` (`height`: the quality asked, for the refusal's words). */
  const run = (request: ClipRequest, name: string, height: number) => {
    worker.current?.terminate();
    const w = new Worker(new URL('./clip-worker.ts', import.meta.url), { type: 'module' });
    worker.current = w;
    setState({ kind: 'working', share: 0 });
    w.onmessage = (ev: MessageEvent<ClipMessage>) => {
      const m = ev.data;
      if (m.kind === 'progress') return setState({ kind: 'working', share: m.share });
      w.terminate();
      worker.current = null;
      if (m.kind === 'done') {
        const blob = new Blob([m.mp4], { type: 'video/mp4' });
        setState({
          kind: 'done',
          url: URL.createObjectURL(blob),
          name,
          seconds: m.seconds,
          size: blob.size,
          workMs: m.workMs,
        });
      } else if (m.kind === 'canceled') setState({ kind: 'message', text: t('video.exportCanceled') });
      else if (m.kind === 'failed') setState({ kind: 'message', text: t('video.exportFailed', { reason: m.message }) });
      else
        setState({
          kind: 'message',
          text:
            m.reason === 'no-encoder'
              ? t('video.exportNoEncoder')
              : m.reason === 'no-h264'
                ? // Smaller may do at 1080p; at 720p, a size this browser cannot encode at all.
                  height > 720
                  ? t('video.exportNoH264', { res: `${height}p` })
                  : t('video.exportNoH264Size', { width: String(m.width), height: String(m.height) })
                : m.reason === 'hevc'
                  ? t('video.hevc')
                  : m.reason === 'empty'
                    ? t('video.exportEmpty')
                    : t('video.cannotPlay'),
        });
    };
    w.onerror = (ev) => {
      w.terminate();
      worker.current = null;
      setState({ kind: 'message', text: t('video.exportFailed', { reason: ev.message || 'worker' }) });
    };
    w.postMessage({ kind: 'start', request });
  };

  const cancel = () => {
    worker.current?.postMessage({ kind: 'cancel' });
    // A worker stuck in a decoder is ended all the same.
    const w = worker.current;
    setTimeout(() => {
      if (worker.current === w && w) {
        w.terminate();
        worker.current = null;
        setState({ kind: 'message', text: t('video.exportCanceled') });
      }
    }, 2_000);
  };

  const say = (text: string) => setState({ kind: 'message', text });
  return { state, run, cancel, say };
}
