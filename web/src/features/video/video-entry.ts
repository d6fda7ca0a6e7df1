/**
 * The video feature's one door for the app (app/video-slots.tsx): both pages' components behind a
 * single dynamic import. Two imports, one per component, made the bundler split the catalog's
 * shared chunk and gave /login a third file (measured with the build's manifest).
 */
export { LapVideos } from './lap-videos';
export { VideoSyncRecord } from './session-video';
