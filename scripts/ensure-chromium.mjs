// Installs Debian's Chromium when missing (never a downloaded browser build).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function ensureChromium() {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  console.log(`[test] ${CHROMIUM} missing: installing Debian's chromium package`);
  const sudo = process.getuid && process.getuid() !== 0 ? ['sudo'] : [];
  const run = (args) =>
    execFileSync(sudo[0] ?? args[0], sudo.length ? args : args.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  run(['apt-get', 'update']);
  run(['apt-get', 'install', '-y', 'chromium']);
  if (!existsSync(CHROMIUM)) throw new Error(`chromium installed but ${CHROMIUM} is still missing`);
  return CHROMIUM;
}

if (import.meta.url === `file://${process.argv[1]}`) ensureChromium();
