// Installs Debian's browsers (never a downloaded browser build) and Debian's ffmpeg that the video
// tests make their H.265 and odd-sized files with, when missing. The end-to-end tests drive
// Chromium's headless shell (decision 034); the benchmarks' Lighthouse rows drive Chromium itself.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const E2E_CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FFMPEG = '/usr/bin/ffmpeg';

function ensureDebianPackage(binary, pkg, why) {
  if (existsSync(binary)) return binary;
  console.log(`[test] ${binary} missing${why}: installing Debian's ${pkg} package`);
  const sudo = process.getuid && process.getuid() !== 0 ? ['sudo'] : [];
  const run = (args) =>
    execFileSync(sudo[0] ?? args[0], sudo.length ? args : args.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  run(['apt-get', 'update']);
  run(['apt-get', 'install', '-y', '--no-install-recommends', pkg]);
  if (!existsSync(binary)) throw new Error(`${pkg} installed but ${binary} is still missing`);
  return binary;
}

export function ensureChromium() {
  return ensureDebianPackage(CHROMIUM, 'chromium', '');
}

export function ensureHeadlessChromium() {
  return ensureDebianPackage(E2E_CHROMIUM, 'chromium-headless-shell', ' (the end-to-end tests drive it)');
}

export function ensureFfmpeg() {
  return ensureDebianPackage(FFMPEG, 'ffmpeg', ' (e2e/video.spec.ts makes its test videos with it)');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureHeadlessChromium();
  ensureFfmpeg();
}
