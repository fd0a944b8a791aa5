import type { Json } from '../envs/core/service.ts'
import type { Entity } from './types.ts'

/**
 * The entities of a dumped collection (`Object.values`), listed once per collection object. Dumps hand the same
 * collection object back while its rows are unchanged (envs/core/dump-memo.ts, docs/decisions/0297), so a task's
 * episodes and an oracle's many reads of one state list a collection of hundreds of messages once instead of each
 * time; `Object.values` of such a dictionary was a fifth of `verify()` (docs/decisions/0324). Callers get a copy,
 * theirs to change. The collection is frozen when first listed: changing it afterwards would leave the list stale,
 * so it throws instead.
 */
const listed = new WeakMap<object, readonly Entity[]>()

export function entityList(collection: Record<string, Json> | undefined): Entity[] {
  if (!collection) return []
  let list = listed.get(collection)
  if (!list) {
    list = Object.values(Object.freeze(collection)) as Entity[]
    listed.set(collection, list)
  }
  return list.slice()
}
