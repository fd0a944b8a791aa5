import type Database from 'better-sqlite3'
import type { Db } from './db.ts'
import type { Json } from './service.ts'

/**
 * Dumped entities memoised per connection (docs/decisions/0297). A dump reads its rows as it always does, then
 * asks the memo for each entity with every input the entity is built from (the row's values, blobs included, and
 * anything else it reads: label ids, reactions, looked-up emails). When all inputs equal those of a kept entity,
 * that same object comes back; otherwise the entity is built and kept. Keys are full contents, never ids or
 * versions alone, so a row rewritten by restore, rewind or raw SQL can never be served stale: it simply misses.
 *
 * Per slot the memo keeps the first entity it saw (on a validation connection, the template's) and the latest,
 * so alternating episodes of one template both hit and the diff against the initial state sees the same object
 * (envs/core/diff.ts skips it). Like the statement cache (envs/core/db.ts) the memo belongs to the connection
 * (a WeakMap keyed by it): it dies with it and is bounded. Callers must treat returned entities as read-only.
 */
type Entry = { inputs: readonly unknown[]; entity: Json }
type Slot = { first: Entry; last: Entry }
type Memos = { size: number; collections: Map<string, Map<string, Slot>> }

const MAX_ENTRIES = 100_000
const memos = new WeakMap<Database.Database, Memos>()

/**
 * Equal inputs: same length and every value the same (`Object.is`), byte buffers compared by content, arrays and
 * plain objects (rows, as read: envs/core/dump-rows.ts) compared value by value. The very same array is equal at
 * once: a kept row, frozen, is never compared again.
 */
export function sameInputs(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const x = a[i]
    const y = b[i]
    if (Object.is(x, y) || sameValue(x, y)) continue
    return false
  }
  return true
}

/** Equal values as sameInputs compares its inputs' elements (rows as read: arrays, plain objects, byte buffers). */
export function sameValue(x: unknown, y: unknown): boolean {
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false
  if (x instanceof Uint8Array || y instanceof Uint8Array) {
    return (
      x instanceof Uint8Array && y instanceof Uint8Array && Buffer.from(x.buffer, x.byteOffset, x.byteLength).equals(y)
    )
  }
  if (Array.isArray(x) || Array.isArray(y)) return Array.isArray(x) && Array.isArray(y) && sameInputs(x, y)
  if (Object.getPrototypeOf(x) !== Object.prototype || Object.getPrototypeOf(y) !== Object.prototype) return false
  const kx = Object.keys(x)
  const ky = Object.keys(y)
  if (!sameInputs(kx, ky)) return false
  for (const k of kx) {
    const vx = (x as Record<string, unknown>)[k]
    const vy = (y as Record<string, unknown>)[k]
    if (!Object.is(vx, vy) && !sameValue(vx, vy)) return false
  }
  return true
}

export type EntityMemo = {
  /** The kept entity for `key` whose inputs equal `inputs`, or `build()`'s (then kept as the latest). */
  entity(key: string, inputs: readonly unknown[], build: () => Json): Json
}

/** The memo of one collection (`<service>.<collection>`) on this world's connection. */
export function entityMemo(db: Db, collection: string): EntityMemo {
  const client = db.$client
  let found = memos.get(client)
  if (!found) memos.set(client, (found = { size: 0, collections: new Map() }))
  const all = found
  let slots = all.collections.get(collection)
  if (!slots) all.collections.set(collection, (slots = new Map()))
  const kept = slots
  return {
    entity(key, inputs, build) {
      const slot = kept.get(key)
      if (slot) {
        if (sameInputs(slot.last.inputs, inputs)) return slot.last.entity
        if (slot.first !== slot.last && sameInputs(slot.first.inputs, inputs)) return slot.first.entity
      }
      const entry: Entry = { inputs, entity: build() }
      if (slot) slot.last = entry
      else {
        // Bounded: a connection that has kept too many entities starts over (correct either way, only slower).
        if (all.size >= MAX_ENTRIES) {
          for (const m of all.collections.values()) m.clear()
          all.size = 0
        }
        kept.set(key, { first: entry, last: entry })
        all.size++
      }
      return entry.entity
    },
  }
}

type Kept = { inputs: readonly unknown[]; value: unknown }
const keptValues = new WeakMap<Database.Database, Map<string, { first: Kept; last: Kept }>>()

/**
 * A value derived from inputs that are kept objects (rows served by envs/core/dump-rows.ts, frozen): the value
 * built from the very same objects (`Object.is`, never contents) comes back, else `build()`'s, kept as the latest.
 * A whole collection whose rows did not change is then the same object again, and diffStates skips it. `build`
 * must read nothing but the inputs. Per connection, the first and the latest per name, as entities are kept.
 */
export function keptValue<T>(db: Db, name: string, inputs: readonly unknown[], build: () => T): T {
  const client = db.$client
  let byName = keptValues.get(client)
  if (!byName) keptValues.set(client, (byName = new Map()))
  const same = (k: Kept) => k.inputs.length === inputs.length && k.inputs.every((x, i) => Object.is(x, inputs[i]))
  const slot = byName.get(name)
  if (slot && same(slot.last)) return slot.last.value as T
  if (slot && same(slot.first)) return slot.first.value as T
  const kept: Kept = { inputs, value: build() }
  if (slot) slot.last = kept
  else byName.set(name, { first: kept, last: kept })
  return kept.value as T
}
