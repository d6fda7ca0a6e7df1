// Signing in through a popup, shared by both login screens: the popup's last page (public/auth-done.js)
// reports the result back by message; a blocked popup becomes a full-page redirect.
import type { ErrorCode } from '#core/errors.ts';
import { isErrorCode } from '#core/errors.ts';

export type SignInResult = { ok: true } | { ok: false; error: ErrorCode };

interface AuthMessage {
  type: 'voltas-auth';
  ok: boolean;
  error: string | null;
}

function isAuthMessage(data: unknown): data is AuthMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'voltas-auth';
}

/**
 * Opens the sign-in popup (the spec's Google popup) and resolves once the attempt settles.
 * A blocked popup falls back to a full-page redirect (the promise then never settles here).
 * `onLateSuccess` fires if a success arrives after we already reported the popup closed (some
 * providers sever the popup's link to its opener, so `closed` can read true too early).
 */
export function signInWithPopup(onLateSuccess: () => void): Promise<SignInResult> {
  const popup = window.open('/api/auth/login?mode=popup', 'voltas-login', 'popup=yes,width=480,height=680');
  if (!popup) {
    window.location.assign('/api/auth/login?mode=redirect');
    return new Promise(() => {});
  }
  return new Promise((resolve) => {
    let settled = false;
    const channel = 'BroadcastChannel' in window ? new BroadcastChannel('voltas-auth') : null;
    const finish = (result: SignInResult) => {
      if (settled) {
        if (result.ok) onLateSuccess();
        return;
      }
      settled = true;
      resolve(result);
    };
    const onData = (data: unknown) => {
      if (!isAuthMessage(data)) return;
      cleanup();
      finish(
        data.ok ? { ok: true } : { ok: false, error: isErrorCode(data.error) ? data.error : 'auth/invalid-credential' },
      );
    };
    const onMessage = (ev: MessageEvent) => {
      if (ev.origin === window.location.origin) onData(ev.data);
    };
    const onChannel = (ev: MessageEvent) => onData(ev.data);
    let graceTimer: number | undefined;
    const poll = window.setInterval(() => {
      if (!popup.closed || graceTimer !== undefined) return;
      // Give a message already on its way a moment to arrive before calling it a cancel.
      graceTimer = window.setTimeout(() => finish({ ok: false, error: 'auth/popup-closed-by-user' }), 800);
    }, 400);
    const cleanup = () => {
      window.clearInterval(poll);
      if (graceTimer !== undefined) window.clearTimeout(graceTimer);
      window.removeEventListener('message', onMessage);
      channel?.close();
    };
    window.addEventListener('message', onMessage);
    channel?.addEventListener('message', onChannel);
  });
}
