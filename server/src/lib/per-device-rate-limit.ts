import { hashToken } from './tokens';

/** A device route's rate limit: per token, not per address (many devices share a track's Wi-Fi). */
export const perToken = (max: number) => ({
  max,
  timeWindow: '1 minute',
  keyGenerator: (req: { headers: { authorization?: string }; ip: string }) =>
    req.headers.authorization ? `dev:${hashToken(req.headers.authorization)}` : `ip:${req.ip}`,
});
