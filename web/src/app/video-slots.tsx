/**
 * The rider's video on the analytics and compare pages (issue 37): the pages take a slot
 * (lib/video-slot.ts), the video feature fills it, joined here in the app layer. Its code is
 * downloaded when a page first shows the slot, never with /login's or /laps' first load.
 */
import { codeOnDemand } from '../lib/code-on-demand';
import type { LapVideosProps, SessionVideoProps } from '../lib/video-slot';
import { useT } from '../i18n/messages';

const sessionVideo = codeOnDemand<SessionVideoProps>(() =>
  import('../features/video/video-entry').then((m) => m.VideoSyncRecord),
);
const lapVideos = codeOnDemand<LapVideosProps>(() => import('../features/video/video-entry').then((m) => m.LapVideos));

function Failed() {
  const t = useT();
  return <p className="notice">{t('app.pageLoadFailed')}</p>;
}

export function SessionVideoOnDemand(props: SessionVideoProps) {
  const { Component, failed } = sessionVideo.useCode();
  return Component ? <Component {...props} /> : failed ? <Failed /> : null;
}

export function LapVideosOnDemand(props: LapVideosProps) {
  const { Component, failed } = lapVideos.useCode();
  return Component ? <Component {...props} /> : failed ? <Failed /> : null;
}
