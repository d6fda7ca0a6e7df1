// The real server in a process of its own, for the scripts that load, break or abuse it.
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '#test/test-server.ts';

/** Starts `voltas serve` on a free loopback port with `env`; resolves once it listens. */
export async function startServerProcess(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/voltas.mjs', 'serve'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('Voltas is running') && resolve());
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}
