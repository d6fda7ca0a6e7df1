/**
 * A share link's limits, apart from its zod contract (shares.contract.ts) so that the pages that
 * offer 'Compartilhar' (/laps, analytics) load no zod (decision 002).
 */

/** A link's name: what the friend who opens it reads above the laps. */
export const MAX_SHARE_NAME = 80;
