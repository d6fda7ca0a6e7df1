import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { DEMO_ACCOUNTS, DEMO_DEVICE_ID } from '../lib/demo-accounts';
import { nowIso } from '../lib/tokens';
import { ensureUser, setRoles } from '../modules/users/users.repository';

/** Loads the demo accounts (rider, seller, admin) and the demo device. Idempotent. */
export async function loadDemo(db: Kysely<DB>, opts: { onlyIfEmpty: boolean }): Promise<string> {
  if (opts.onlyIfEmpty) {
    const any = await db.selectFrom('users').select('email').limit(1).executeTakeFirst();
    if (any) return 'demo: data dir already in use, nothing loaded';
  }
  for (const account of DEMO_ACCOUNTS) {
    await ensureUser(db, account.email, account.name);
    await setRoles(db, account.email, {
      adm: account.role === 'admin' ? '1' : '',
      seller: account.role === 'seller' ? '1' : '',
    });
  }
  await db
    .insertInto('devices')
    .values({ id: DEMO_DEVICE_ID, name: 'Demonstração', created_at: nowIso() })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return `demo: ${DEMO_ACCOUNTS.length} accounts (${DEMO_ACCOUNTS.map((a) => a.email).join(', ')}) and device ${DEMO_DEVICE_ID}`;
}
