import type { Catalog } from '../intl.ts';

/** English texts of the firmware refusals (issue 61); spread into en.ts. */
export const enFirmwareErrors = {
  'errors.firmware/bad-signature':
    'The manifest is not signed by any key in FIRMWARE_PUBLIC_KEYS (or the signature does not match); nothing was stored.',
  'errors.firmware/bad-manifest':
    'The manifest is not what `voltas firmware sign` makes (class, version, seq, sha256, size, expires, minFrom), or it has expired; nothing was stored.',
  'errors.firmware/seq-not-above':
    "The manifest's seq is not above the last image of its hardware class: an image never moves a class backwards.",
  'errors.firmware/image-mismatch':
    "The image's bytes do not match its signed manifest (size or sha256); nothing was stored.",
  'errors.firmware/image-missing': "This firmware's image has not been uploaded yet: upload it before rolling it out.",
  'errors.firmware/not-offered': 'This device was not offered this firmware, or is not in this rollout.',
  'errors.firmware/rollout-closed': 'This rollout is halted, aborted or done: its offer no longer stands.',
  'errors.firmware/not-rebooted':
    'Confirm only after rebooting into the new image: the last check-in did not report its version.',
  'errors.firmware/range-not-satisfiable': 'The Range asked for starts past the end of the image.',
  'errors.firmware/busy':
    'Many devices are downloading firmware from this server right now: try again after Retry-After seconds.',
} satisfies Partial<Catalog>;
