import { describe, expect, test } from 'vitest'
import { entityList } from '../../oracles/entity-list.ts'
import { entities } from '../../oracles/predicates.ts'
import { createGym } from '../../gym/index.ts'
import { loadSample } from '../../gym/corpus.ts'
import type { WorldState } from '../../envs/core/diff.ts'

describe('entityList (oracles list a dumped collection once per collection object)', () => {
  test('gives the values in order, a copy each time, and freezes the collection it listed', () => {
    const collection = { 'u/a': { id: 'a' }, 'u/b': { id: 'b' } }
    const first = entityList(collection)
    expect(first.map((e) => e.id)).toEqual(['a', 'b'])
    first.reverse()
    expect(entityList(collection).map((e) => e.id)).toEqual(['a', 'b'])
    // A change after listing would leave the kept list stale: it fails instead.
    expect(() => Object.assign(collection, { 'u/c': { id: 'c' } })).toThrow(TypeError)
    expect(entityList(undefined)).toEqual([])
    // Another object with other contents is listed on its own.
    expect(entityList({ 'u/c': { id: 'c' } }).map((e) => e.id)).toEqual(['c'])
  })

  test('each verify sees its own episode: a new message appears, and is gone after the rollback', async () => {
    const gym = createGym({ tasks: [], reuseWorlds: true })
    const task = loadSample(1, ['gmail-label-sender'])[0]!
    const subjects = (s: WorldState) => entities(s, 'gmail', 'messages').map((m) => String(m.subject))
    try {
      const a = gym.reset(task)
      a.verify()
      const before = subjects(a.lastVerified!.final)
      const raw = Buffer.from('From: x@example.com\r\nTo: y@example.com\r\nSubject: listed once\r\n\r\nbody\r\n')
      const body = { raw: raw.toString('base64url'), labelIds: ['INBOX'] }
      const insert = { method: 'POST', path: '/gmail/v1/users/me/messages', body }
      const sent = await a.call({ tool: 'http_request', arguments: insert })
      expect(sent.status).toBe(200)
      a.verify()
      expect(subjects(a.lastVerified!.final)).toEqual([...before, 'listed once'])
      a.close()
      const b = gym.reset(task)
      b.verify()
      expect(subjects(b.lastVerified!.final)).toEqual(before)
      b.close()
    } finally {
      gym.worlds.close()
    }
  })
})
