import http from 'node:http';
import { Writable } from 'node:stream';
import { hashToken, newToken } from '#server/lib/tokens.ts';
import { insertDevice } from '#server/modules/devices/devices.repository.ts';
import { ensureUser } from '#server/modules/users/users.repository.ts';
import type { TestServer } from './test-server';

/** Registers a device owned by `owner` and returns its bearer token. */
export async function addDevice(server: TestServer, id: string, owner: string, seller = ''): Promise<string> {
  const token = newToken();
  await ensureUser(server.database.db, owner);
  await insertDevice(server.database.db, { id, owner, seller, tokenHash: hashToken(token) });
  return token;
}

export const LAP_LINE =
  '0132456|A|92.456|23456,1,0,0,23.456,1034|25001,0,0,0,25.001,1190|21999,0,0,0,21.999,1002|22000,0,0,0,22.000,1083|3|4309|5';
export const GPS_LINE = '-23.701234,-46.697654|187.3|12|140151.100|5|0|A|-42.5|-41.8|1234';

/**
 * PUT with the path sent verbatim (no URL normalization of '..' or '%2e%2e', as a hostile client
 * would). A header given as '' is not sent at all (e.g. `{ 'content-type': '' }`: no Content-Type).
 * A server that does not listen gets it through app.inject, which resolves dot segments: such a
 * path needs a listening server, and is refused here rather than tested as another one.
 */
export async function put(
  server: TestServer,
  path: string,
  token: string | undefined,
  body: string | Buffer,
  headers: Record<string, string> = {},
) {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  const url = new URL(server.baseUrl);
  const sent = Object.fromEntries(
    Object.entries({
      'content-type': 'text/plain; charset=utf-8',
      'content-length': String(buf.length),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    }).filter(([, v]) => v !== ''),
  );
  if (!server.listening && /(^|\/)(\.|%2e){1,2}(\/|\?|$)/i.test(path))
    throw new Error(`${path}: app.inject would resolve its dot segments; start the server listening`);
  const res = server.listening
    ? await putOverSocket(url, path, sent, buf)
    : await server.app
        .inject({ method: 'PUT', url: path, headers: { host: url.host, ...sent }, payload: buf })
        .then((r) => ({ status: r.statusCode, text: r.body }));
  const text = res.text;
  let json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test helper
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, body: json, text };
}

function putOverSocket(url: URL, path: string, headers: Record<string, string>, buf: Buffer) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      method: 'PUT',
      path,
      // One connection per request: no pooled keep-alive socket outlives a server's close.
      agent: false,
      headers,
    });
    req.on('error', reject);
    req.on('response', (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => resolve({ status: r.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.end(buf);
  });
}

/** Reads a server-sent events response until `until` matches or `ms` pass; returns the text read. */
export async function readEvents(res: Response, until: RegExp, ms: number): Promise<string> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let text = '';
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && !until.test(text)) {
    const chunk = await Promise.race([
      reader.read(),
      new Promise<null>((r) => setTimeout(() => r(null), deadline - Date.now())),
    ]);
    if (!chunk || chunk.done) break;
    text += dec.decode(chunk.value);
  }
  return text;
}

/** Reads a server-sent events response until the server ends it (true) or `ms` pass (false). */
export async function streamEnds(res: Response, ms: number): Promise<boolean> {
  const reader = res.body!.getReader();
  const deadline = Date.now() + ms;
  try {
    while (Date.now() < deadline) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<null>((r) => setTimeout(() => r(null), Math.max(0, deadline - Date.now()))),
      ]);
      if (chunk?.done) return true;
    }
    return false;
  } catch {
    return true; // the connection was cut
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** A log destination that keeps every line written to it (to look for what must or must not be logged). */
export function logSink(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, stream };
}
