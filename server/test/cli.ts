import { vi } from 'vitest';
import { run } from '#server/cli/voltas.ts';

/** Runs `voltas <args>` in-process with `env` set, capturing what it prints. */
export async function runCli(
  env: Record<string, string>,
  args: string[],
): Promise<{ code: number; out: string; err: string }> {
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  try {
    const code = await run(args);
    return { code, out: out.join(''), err: err.join('') };
  } finally {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  }
}
