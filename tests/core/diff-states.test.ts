import { describe, expect, it } from 'vitest'
import { changedIds, diffStates, equal, noteChangedIds, notedIds, type WorldState } from '../../envs/core/diff.ts'
import type { Json } from '../../envs/core/service.ts'

const state = (messages: Record<string, Json>): WorldState => ({
  version: 1,
  clockMs: 0,
  users: [],
  services: { gmail: { version: 1, entities: { messages } } },
})

// docs/decisions/0342: one walk of the ids before, the ids after only when some are new; a collection noted as
// rebuilt from another is compared on its noted ids only, and only against that very collection.
describe('diffStates', () => {
  const shared = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`u/${i}`, { n: i } as Json]))

  it('finds inserted, deleted and updated ids in sorted order whichever side has more', () => {
    const before = { ...shared, 'u/gone': { n: -1 } }
    const after: Record<string, Json> = { ...shared, 'u/7': { n: 70 }, 'u/new': { n: 1 }, 'a/new': { n: 2 } }
    delete after['u/3']
    expect(changedIds(before, after)).toEqual(['a/new', 'u/3', 'u/7', 'u/gone', 'u/new'])
    expect(changedIds(after, before)).toEqual(['a/new', 'u/3', 'u/7', 'u/gone', 'u/new'])
    expect(changedIds(shared, { ...shared })).toEqual([])
    // As many ids on both sides, one swapped for another.
    const swapped: Record<string, Json> = { ...shared, 'u/x': { n: 0 } }
    delete swapped['u/0']
    expect(changedIds(shared, swapped)).toEqual(['u/0', 'u/x'])
  })

  it('compares only the noted ids of a collection rebuilt from the initial one, with the same changes', () => {
    const before = { ...shared }
    const after: Record<string, Json> = { ...shared, 'u/4': { n: 40 }, 'u/5': { n: 5 }, 'u/new': { n: 1 } }
    delete after['u/9']
    const full = diffStates(state(before), state(after))
    expect(full.map((c) => `${c.op} ${c.id}`)).toEqual(['updated u/4', 'deleted u/9', 'inserted u/new'])
    // Noted: a superset of what changed (u/5 is an equal entity, u/none is in neither), in any order.
    noteChangedIds(after, before, ['u/new', 'u/none', 'u/9', 'u/5', 'u/4'])
    expect(notedIds(after, before)).toBeDefined()
    expect(diffStates(state(before), state(after))).toEqual(full)
    // Against another collection the note does not hold: every id is walked.
    const other = { ...shared, 'u/1': { n: 10 } }
    expect(notedIds(after, other)).toBeUndefined()
    expect(diffStates(state(other), state(after)).map((c) => `${c.op} ${c.id}`)).toEqual([
      'updated u/1',
      'updated u/4',
      'deleted u/9',
      'inserted u/new',
    ])
  })

  it('reports the fields that differ, old keys first, and nothing for a rebuilt entity with equal values', () => {
    const was = { id: 'm1', labels: ['INBOX', 'UNREAD'], meta: { a: 1, b: [1, { c: 2 }] }, gone: 'x' }
    // Rebuilt objects (not the same references), nested keys in another order: equal.
    const same = { meta: { b: [1, { c: 2 }], a: 1 }, gone: 'x', labels: ['INBOX', 'UNREAD'], id: 'm1' }
    expect(diffStates(state({ 'u/1': was }), state({ 'u/1': same }))).toEqual([])
    const now = { id: 'm1', labels: ['INBOX'], meta: { a: 1, b: [1, { c: 3 }] }, added: true }
    const [change] = diffStates(state({ 'u/1': was }), state({ 'u/1': now }))
    expect(change).toMatchObject({ op: 'updated', id: 'u/1' })
    const fields = (change as { fields: Record<string, unknown> }).fields
    expect(Object.keys(fields)).toEqual(['labels', 'meta', 'gone', 'added'])
    expect(fields.gone).toEqual({ before: 'x', after: undefined })
    expect(fields.added).toEqual({ before: undefined, after: true })
  })

  it('equal: key order ignored, extra or missing keys and array lengths are differences', () => {
    expect(equal({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true)
    expect(equal({ a: 1 }, { a: 1, b: 2 })).toBe(false)
    expect(equal({ a: 1, b: 2 }, { a: 1 })).toBe(false)
    expect(equal({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false)
    expect(equal([1, 2], [1, 2, 3])).toBe(false)
    expect(equal([{ a: 1 }], [{ a: 2 }])).toBe(false)
    expect(equal({ a: [] }, { a: {} })).toBe(false)
    expect(equal(null, {})).toBe(false)
  })
})
