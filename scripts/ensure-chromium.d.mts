// Types of ensure-chromium.mjs (a plain script the test runner imports before TypeScript runs).
/** The browser the end-to-end tests drive: Debian's Chromium headless shell, or CHROMIUM_PATH. */
export const E2E_CHROMIUM: string;
/** Debian's Chromium's path (the benchmarks' browser), installed with apt when missing. */
export function ensureChromium(): string;
/** Debian's Chromium headless shell's path (the end-to-end tests' browser), installed with apt when missing. */
export function ensureHeadlessChromium(): string;
/** Debian's ffmpeg's path, installed with apt when missing. */
export function ensureFfmpeg(): string;
