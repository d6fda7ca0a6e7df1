import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * Makes a tree readable by its owner only (folders 0700, files 0600): riders' laps, the
 * database and the key that opens Wi-Fi passwords are nobody else's on a shared machine.
 */
export async function restrictToOwner(root: string): Promise<void> {
  const stat = await fs.lstat(root);
  if (stat.isSymbolicLink()) return;
  if (!stat.isDirectory()) {
    await fs.chmod(root, 0o600);
    return;
  }
  await fs.chmod(root, 0o700);
  for (const entry of await fs.readdir(root)) await restrictToOwner(path.join(root, entry));
}
