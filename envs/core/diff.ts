import type { Json, ServiceState } from './service.ts'

/** The whole-world view oracles read: users, clock and each service's state. */
export type WorldState = {
  version: 1
  clockMs: number
  users: { id: string; email: string; name: string; timeZone: string }[]
  services: Record<string, ServiceState>
}

export type EntityChange =
  | { op: 'inserted'; service: string; collection: string; id: string; after: Json }
  | { op: 'deleted'; service: string; collection: string; id: string; before: Json }
  | {
      op: 'updated'
      service: string
      collection: string
      id: string
      fields: Record<string, { before: Json | undefined; after: Json | undefined }>
      before: Json
      after: Json
    }

/** Entity-level differences between two world states, in a stable order (service, collection, id). */
export function diffStates(before: WorldState, after: WorldState): EntityChange[] {
  const out: EntityChange[] = []
  const services = [...new Set([...Object.keys(before.services), ...Object.keys(after.services)])].sort()
  for (const service of services) {
    // The same dump object on both sides (a service an episode did not touch, server/state-since.ts): no changes.
    if (before.services[service] === after.services[service]) continue
    const b = before.services[service]?.entities ?? {}
    const a = after.services[service]?.entities ?? {}
    const collections = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort()
    for (const collection of collections) {
      const bc = b[collection] ?? {}
      const ac = a[collection] ?? {}
      if (bc === ac) continue
      const noted = notedIds(ac, bc)
      for (const id of noted ? candidateIds(noted, bc, ac) : changedIds(bc, ac)) {
        const was = bc[id]
        const now = ac[id]
        if (was === undefined && now !== undefined) out.push({ op: 'inserted', service, collection, id, after: now })
        else if (was !== undefined && now === undefined)
          out.push({ op: 'deleted', service, collection, id, before: was })
        else if (was !== undefined && now !== undefined) {
          const fields = changedFields(was, now)
          if (fields) out.push({ op: 'updated', service, collection, id, fields, before: was, after: now })
        }
      }
    }
  }
  return out
}

/**
 * Collections built from another by rebuilding a few ids (a dump patching the collection it built at hold():
 * envs/gmail/state.ts): every other id is in both or neither, with the very same entity. Keyed by the collection
 * object (collections are never changed once dumped), so it lives as long as the collection.
 */
const changedSince = new WeakMap<object, { from: object; ids: readonly string[] }>()

/** Notes that `collection` equals `from` but for `ids` (see changedSince); diffStates then compares only those. */
export function noteChangedIds(collection: object, from: object, ids: Iterable<string>): void {
  changedSince.set(collection, { from, ids: [...ids] })
}

/** The ids noted as the only ones that may differ between `collection` and `from` (noteChangedIds), if any. */
export function notedIds(collection: object, from: object): readonly string[] | undefined {
  const noted = changedSince.get(collection)
  return noted?.from === from ? noted.ids : undefined
}

/** changedIds among the noted candidates (the others are the very same entity on both sides). */
function candidateIds(candidates: readonly string[], b: Record<string, Json>, a: Record<string, Json>): string[] {
  return candidates
    .filter((id) => Object.hasOwn(a, id) !== Object.hasOwn(b, id) || (Object.hasOwn(a, id) && a[id] !== b[id]))
    .sort()
}

/**
 * The ids whose entity is not the very same object on both sides (a memoised dump entity, envs/core/dump-memo.ts,
 * is unchanged), sorted: only those are compared and sorted, not every id of a large collection. One walk of the
 * ids before; the ids after are walked only when some are not among them (docs/decisions/0342).
 */
export function changedIds(b: Record<string, Json>, a: Record<string, Json>): string[] {
  const ids: string[] = []
  let shared = 0
  for (const id in b) {
    if (!Object.hasOwn(a, id)) ids.push(id)
    else {
      shared++
      if (a[id] !== b[id]) ids.push(id)
    }
  }
  if (Object.keys(a).length !== shared) for (const id in a) if (!Object.hasOwn(b, id)) ids.push(id)
  return ids.sort()
}

type FieldChanges = Record<string, { before: Json | undefined; after: Json | undefined }>
const isObj = (v: Json): v is { [k: string]: Json } => v !== null && typeof v === 'object' && !Array.isArray(v)

/**
 * The fields that differ, the entity's keys first, then keys only `now` has (undefined: none differs). Walked with
 * `for…in` (entities are plain objects: their own keys), so no key list is built per entity compared.
 */
function changedFields(was: Json, now: Json): FieldChanges | undefined {
  if (!isObj(was) || !isObj(now)) return equal(was, now) ? undefined : { '': { before: was, after: now } }
  let out: FieldChanges | undefined
  for (const key in was) if (!equal(was[key], now[key])) (out ??= {})[key] = { before: was[key], after: now[key] }
  for (const key in now)
    if (!Object.hasOwn(was, key) && !equal(undefined, now[key]))
      (out ??= {})[key] = { before: undefined, after: now[key] }
  return out
}

/** Structural equality of JSON values (key order ignored). */
export function equal(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true
  if (a === null || b === null || a === undefined || b === undefined || typeof a !== typeof b) return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false
    return true
  }
  if (typeof a === 'object' && typeof b === 'object' && !Array.isArray(b)) {
    // Own keys of plain objects, counted and compared without building key lists.
    let n = 0
    for (const k in a) {
      if (!equal(a[k], b[k])) return false
      n++
    }
    for (const _ in b) n--
    return n === 0
  }
  return false
}
