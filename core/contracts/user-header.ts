/**
 * On every API answer to a signed-in request: who the server answered for, as a key of the user
 * (SHA-256 of the e-mail, base64url; not a secret, sent only to that user). The service worker
 * stamps each kept copy with it and serves a copy only to the user it was kept for (decision 025).
 * No schemas here: the service worker imports it.
 */
export const USER_HEADER = 'x-voltas-user';
