// The admin API's bodies and answers (users, devices, roles, the audit log), validated by zod on the server.
import { z } from 'zod';

const email = z.string().trim().toLowerCase().pipe(z.email().max(254));
const deviceId = z.string().regex(/^\d{12}$/, 'device id: 12 digits');

/** A user as admins see them: the Wi-Fi name, never the password. */
export const adminUserSchema = z.object({
  email: z.string(),
  displayName: z.string(),
  hardware: z.array(z.string()),
  adm: z.string(),
  seller: z.string(),
  nomePiloto: z.string(),
  numeroMoto: z.string(),
  wifi: z.string(),
  userSeller: z.string(),
  disabled: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminDeviceSchema = z.object({
  id: z.string(),
  owner: z.string(),
  seller: z.string(),
  up: z.string(),
  version: z.string(),
  name: z.string(),
  lastSeenAt: z.string().nullable(),
});
export type AdminDevice = z.infer<typeof adminDeviceSchema>;

export const assignOwnerSchema = z.object({ email, deviceId });
export const assignBuyerSellerSchema = z.object({ buyer: email, seller: email });
export const assignDeviceSellerSchema = z.object({ deviceId, seller: email });
export const registerDeviceSchema = z.object({ id: deviceId, owner: email.optional(), seller: email.optional() });
export const deviceTokenResponseSchema = z.object({ id: z.string(), token: z.string() });
/**
 * A change of a device's owner revokes its token: the new one comes back once, to load into the
 * device (null when the owner did not change and the token stays).
 */
export const ownerChangeResponseSchema = z.object({
  ok: z.literal(true),
  id: z.string(),
  token: z.string().nullable(),
});
export const disableUserSchema = z.object({ disabled: z.boolean() });
export const setRolesSchema = z.object({ adm: z.boolean(), seller: z.boolean() });
export const emailParamsSchema = z.object({ email: z.string().max(254) });
export const deviceIdParamsSchema = z.object({ id: deviceId });

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  target: z.string(),
  before: z.record(z.string(), z.unknown()),
  after: z.record(z.string(), z.unknown()),
});

/** The seller's view of a buyer. */
export const buyerSchema = z.object({ email: z.string(), hardware: z.array(z.string()), nomePiloto: z.string() });
export const sellDeviceSchema = z.object({ buyer: email, deviceId });
