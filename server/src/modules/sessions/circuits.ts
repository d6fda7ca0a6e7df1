// Grouping a rider's sessions by circuit: the track Voltas identified, else the session's own name.
import type { Circuit } from '#core/contracts/sessions.contract.ts';

/** A session's name for its track and the track Voltas identified it at (null: not yet). */
export interface NamedAt {
  track: string;
  circuit_id: string | null;
  circuit_name: string | null;
}

/** The key circuits group by: the identified track's id, else the session's own name. */
export const circuitKey = (c: Circuit) => (c.id === null ? `name:${c.name}` : `id:${c.id}`);

/**
 * One circuit is one track, whatever each logger calls it: a session's circuit is the track it was
 * identified at; not identified yet, the one another of the rider's sessions by the same name was
 * (the first the rows give); else its own name. `known`: every (name, circuit) pair of the rider's.
 */
export function circuitOf(known: readonly NamedAt[]): (row: NamedAt) => Circuit {
  const byName = new Map<string, Circuit>();
  for (const k of known)
    if (k.circuit_id !== null && !byName.has(k.track))
      byName.set(k.track, { id: k.circuit_id, name: k.circuit_name ?? k.track });
  return (row) =>
    row.circuit_id !== null
      ? { id: row.circuit_id, name: row.circuit_name ?? row.track }
      : (byName.get(row.track) ?? { id: null, name: row.track });
}

/** Every circuit of the rider's, by name, with the names its sessions carry. */
export function circuitList(known: readonly NamedAt[]): (Circuit & { tracks: string[] })[] {
  const of = circuitOf(known);
  const byKey = new Map<string, Circuit & { tracks: string[] }>();
  for (const k of known) {
    const c = of(k);
    const entry = byKey.get(circuitKey(c)) ?? { ...c, tracks: [] };
    if (!entry.tracks.includes(k.track)) entry.tracks.push(k.track);
    byKey.set(circuitKey(c), entry);
  }
  return [...byKey.values()]
    .map((c) => ({ ...c, tracks: c.tracks.sort() }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
