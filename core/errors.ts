import type { MessageArgs } from './i18n/messages/args.generated';
import type { MessageId } from './i18n/messages/pt-BR';

/**
 * Error codes the API answers with. The spec's storage/... and auth/... codes where one fits,
 * each with the HTTP status it travels with. The web client shows a Portuguese message per code
 * (core/i18n/messages), and the server sends it in the request's language as `mensagem`.
 */
export const ERROR_STATUS = {
  'storage/unknown': 500,
  'storage/object-not-found': 404,
  'storage/bucket-not-found': 404,
  'storage/quota-exceeded': 402,
  'storage/unauthenticated': 401,
  'storage/unauthorized': 403,
  'storage/retry-limit-exceeded': 503,
  'storage/invalid-checksum': 400,
  'storage/canceled': 499,
  'storage/invalid-argument': 400,
  'storage/invalid-format': 422,
  'storage/server-file-wrong-size': 413,
  'storage/internal-error': 500,
  'auth/too-many-requests': 429,
  'auth/user-disabled': 403,
  'auth/invalid-credential': 401,
  'auth/network-request-failed': 502,
  'auth/operation-not-allowed': 403,
  'auth/popup-closed-by-user': 400,
  'auth/popup-blocked': 400,
  'auth/unauthorized-domain': 403,
  'auth/user-token-expired': 401,
  'session/previous-owner': 409,
  'device/reserved-id': 400,
  'request/unsupported-media-type': 415,
  'storage/insufficient-storage': 507,
  'track/no-complete-lap': 422,
  'track/different-tracks': 422,
  'track/pit-lane-far': 422,
  'share/limit-reached': 409,
  'import/unsupported-format': 415,
  'import/xml-dtd': 422,
  'import/xml-limit': 422,
  'import/no-fix': 422,
  'import/too-few-fixes': 422,
  'import/no-date': 422,
  'import/too-large': 413,
  'import/laps-without-trace': 422,
  'import/not-imported': 403,
  'import/too-complex': 422,
  'import/corrupt-gzip': 422,
  'import/session-full': 409,
  'import/quota-exceeded': 413,
  'video/not-mp4': 422,
  'video/bad-marks': 422,
  'video/limit-reached': 409,
  'firmware/bad-signature': 422,
  'firmware/bad-manifest': 422,
  'firmware/seq-not-above': 409,
  'firmware/image-mismatch': 422,
  'firmware/image-missing': 409,
  'firmware/not-offered': 403,
  'firmware/rollout-closed': 409,
  'firmware/not-rebooted': 409,
  'firmware/range-not-satisfiable': 416,
  'firmware/busy': 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const DEFAULT_ERROR_MESSAGE: Record<ErrorCode, string> = {
  'storage/unknown': 'An unknown error occurred.',
  'storage/object-not-found': 'Object does not exist',
  'storage/bucket-not-found': 'Bucket does not exist',
  'storage/quota-exceeded': 'Quota exceeded',
  'storage/unauthenticated':
    'User is not authenticated, please authenticate using Firebase Authentication and try again.',
  'storage/unauthorized': 'User does not have permission to access this object.',
  'storage/retry-limit-exceeded': 'Max retry time for operation exceeded, please try again.',
  'storage/invalid-checksum': 'The uploaded body does not match the checksum sent.',
  'storage/canceled': 'User canceled the upload/download.',
  'storage/invalid-argument': 'Invalid argument.',
  'storage/invalid-format': 'The body is not in the expected format.',
  'storage/server-file-wrong-size': 'The body is larger than allowed.',
  'storage/internal-error': 'Internal error.',
  'auth/too-many-requests': 'Too many requests, try again later.',
  'auth/user-disabled': 'The user account has been disabled.',
  'auth/invalid-credential': 'The sign-in attempt could not be verified.',
  'auth/network-request-failed': 'The identity provider could not be reached.',
  'auth/operation-not-allowed': 'Sign-in was refused by the identity provider.',
  'auth/popup-closed-by-user': 'The sign-in window was closed before finishing.',
  'auth/popup-blocked': 'The sign-in window was blocked.',
  'auth/unauthorized-domain': 'This domain is not allowed to sign in.',
  'auth/user-token-expired': 'The session has expired.',
  'session/previous-owner':
    "This device already holds a session at this track and date that belongs to the device's previous owner; nothing was stored. Record under another date, or ask support.",
  'device/reserved-id': 'Device 000000000001 is the demonstration device and cannot be given to anyone.',
  'request/unsupported-media-type': 'Unsupported Content-Type: send the body as application/json.',
  'storage/insufficient-storage': 'The server is out of disk space; nothing was stored. Try again later.',
  'track/no-complete-lap':
    'The GPS trace of this session holds no complete lap, so no track or lap times can be found from it.',
  'track/different-tracks': 'These two laps were ridden on different tracks (or layouts), so they cannot be compared.',
  'track/pit-lane-far':
    "The pit lane's entry and exit lines must lie within 3 km of the track's start/finish line; nothing was changed.",
  'share/limit-reached': 'Too many share links: revoke one before making another.',
  'import/unsupported-format':
    'Not a format Voltas imports: GPX, RaceChrono CSV (v3), Racelogic VBO, AiM CSV, NMEA 0183, SpeedAngle .sa, TrackAddict CSV, lap.six + gps.six, or a .gz of one of them.',
  'import/xml-dtd': 'XML with a DTD or entity declarations is refused (no DTD, no entities); nothing was stored.',
  'import/xml-limit': 'The GPX holds a tag, an attribute or a text far larger than any GPX has; nothing was stored.',
  'import/no-fix': 'The file holds no usable GPS fix; nothing was stored.',
  'import/too-few-fixes':
    'The file is mostly markup: it holds far fewer track points with a position and a time than a recording does; nothing was stored.',
  'import/no-date': 'The file does not say on which day it was recorded; nothing was stored.',
  'import/too-large': 'The file is larger than the import limit; nothing was stored.',
  'import/laps-without-trace': 'A lap.six needs its gps.six imported first (same day, same laps); nothing was stored.',
  'import/not-imported': 'Only an imported session can be deleted, and only by whoever imported it.',
  'import/too-complex':
    'The file is too large or too complex to read (it needed more memory or time than an import may take); nothing was stored.',
  'import/corrupt-gzip': 'The .gz is damaged or cut short and cannot be inflated; nothing was stored.',
  'import/session-full':
    'This session (one track, one day) already holds as many files or GPS fixes as a session takes; nothing was stored.',
  'import/quota-exceeded':
    'This import would pass the storage you may use; nothing was stored. Delete imported sessions you no longer need first.',
  'video/not-mp4': 'Not a readable MP4 video (or it was cut short): pick the original file from the camera.',
  'video/bad-marks': 'These marks give an impossible clock: mark two moments farther apart, or one only.',
  'video/limit-reached': 'This session already keeps as many video syncs as it may: forget one first.',
  'firmware/bad-signature':
    'The manifest is not signed by any key in FIRMWARE_PUBLIC_KEYS (or the signature does not match its bytes); nothing was stored.',
  'firmware/bad-manifest':
    'The manifest is not one `voltas firmware sign` makes (JSON with class, version, seq, sha256, size, expires, minFrom), or it has expired; nothing was stored.',
  'firmware/seq-not-above':
    "The manifest's seq is not above the last image of its hardware class: an image can never move a class backwards.",
  'firmware/image-mismatch': "The image's bytes do not match its signed manifest (size or sha256); nothing was stored.",
  'firmware/image-missing': "This firmware's image has not been uploaded yet: upload it before rolling it out.",
  'firmware/not-offered': 'This device was not offered this firmware, or is not in this rollout.',
  'firmware/rollout-closed': 'This rollout is halted, aborted or done: its offer no longer stands.',
  'firmware/not-rebooted':
    'Confirm only after rebooting into the new image: the last check-in did not report its version.',
  'firmware/range-not-satisfiable': 'The Range asked starts past the end of the image.',
  'firmware/busy':
    'Many devices are downloading firmware from this server right now: try again after Retry-After seconds.',
};

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}

/** A message of the catalogs with its values: how code words a refusal without knowing who reads it. */
export type MessageRef = {
  [Id in MessageId]: MessageArgs[Id] extends undefined ? { id: Id } : { id: Id; values: MessageArgs[Id] };
}[MessageId];

/** The one error type business code throws; the server's error plugin maps it to HTTP. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields: Record<string, string> | undefined;
  /**
   * The words with this error's details, where the catalog's general one for the code is not
   * enough: catalog messages, said one after the other in the language of whoever reads them.
   */
  readonly mensagem: readonly MessageRef[] | undefined;

  constructor(
    code: ErrorCode,
    message?: string,
    fields?: Record<string, string>,
    mensagem?: MessageRef | readonly MessageRef[],
  ) {
    super(message ?? DEFAULT_ERROR_MESSAGE[code]);
    this.mensagem = mensagem === undefined ? undefined : Array.isArray(mensagem) ? mensagem : [mensagem as MessageRef];
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.fields = fields;
  }
}
