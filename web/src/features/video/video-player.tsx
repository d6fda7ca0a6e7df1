import { useEffect, useRef, type RefObject } from 'react';

/**
 * The rider's video, played from the device (an object URL). Reports the time of each frame shown
 * (requestVideoFrameCallback where the browser has it: the frame on screen, not the coarse
 * timeupdate) and after each seek.
 */
export function VideoPlayer(props: {
  url: string;
  label: string;
  videoRef: RefObject<HTMLVideoElement | null>;
  onTime: (videoMs: number) => void;
  onEnded?: () => void;
  onLoaded?: (video: HTMLVideoElement) => void;
  onError?: () => void;
  testId?: string;
}) {
  const onTime = useRef(props.onTime);
  onTime.current = props.onTime;
  const { videoRef, url } = props;

  useEffect(() => {
    const v = videoRef.current;
    if (!v) return;
    const report = () => onTime.current(v.currentTime * 1000);
    let handle = 0;
    const frames = typeof v.requestVideoFrameCallback === 'function';
    const tick = (_now: number, meta: VideoFrameCallbackMetadata) => {
      onTime.current(meta.mediaTime * 1000);
      handle = v.requestVideoFrameCallback(tick);
    };
    if (frames) handle = v.requestVideoFrameCallback(tick);
    else v.addEventListener('timeupdate', report);
    v.addEventListener('seeked', report);
    return () => {
      if (frames) v.cancelVideoFrameCallback(handle);
      else v.removeEventListener('timeupdate', report);
      v.removeEventListener('seeked', report);
    };
  }, [videoRef, url]);

  return (
    <video
      ref={videoRef}
      className="video-player"
      src={url}
      controls
      playsInline
      preload="metadata"
      aria-label={props.label}
      data-testid={props.testId ?? 'video-player'}
      onEnded={props.onEnded}
      onLoadedMetadata={(e) => props.onLoaded?.(e.currentTarget)}
      onError={props.onError}
    />
  );
}
