// Types of ensure-chromium.mjs (a plain script the test runner imports before TypeScript runs).
/** Debian's Chromium's path, installed with apt when missing. */
export function ensureChromium(): string;
/** Debian's ffmpeg's path, installed with apt when missing. */
export function ensureFfmpeg(): string;
