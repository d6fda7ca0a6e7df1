// The tests that call every route of the app start here: a rider who holds a session and whom every
// signed-in route lets in (admin and seller too), and the app's routes as the policy lists them.
import { setRoles } from '#server/modules/users/users.repository.ts';
import { addDevice, GPS_LINE, LAP_LINE, put } from './fixtures';
import { Browser, startTestServer, type TestServer } from './test-server';

/** The session the rider's device uploads (Interlagos, 1 Nov 2026), as a route's `:track` and `:date`. */
export const SESSION_TRACK = 'Interlagos';
export const SESSION_DATE = '01112026';

/** A server, the rider signed in with every role, and their device's token. */
export async function startWithRiderOfEveryRole(
  device: string,
  env: Record<string, string> = {},
  options: { inject?: boolean } = {},
): Promise<{ server: TestServer; rider: Browser; token: string }> {
  const server = await startTestServer(env, options);
  const token = await addDevice(server, device, 'rider@example.com');
  for (const [file, line] of [
    ['lap.six', LAP_LINE],
    ['gps.six', GPS_LINE],
  ] as const)
    await put(server, `/api/device/v1/sessions/${SESSION_TRACK}/${SESSION_DATE}/${file}`, token, line);
  const rider = new Browser(server);
  await rider.signIn('rider@example.com');
  // Admin and seller: whatever a route refuses, it is not for want of a role.
  await setRoles(server.database.db, 'rider@example.com', { adm: '1', seller: '1' });
  return { server, rider, token };
}

/** A route's path (`server.app.accessRules`' `url`) with each `:param` filled: by name where `known` has it, else with `rest`. */
export const pathOf = (url: string, known: Record<string, string>, rest: string): string =>
  url.replace(/:([A-Za-z]+)/g, (_, name: string) => known[name] ?? rest);
