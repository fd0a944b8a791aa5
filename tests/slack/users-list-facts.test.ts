import { describe, expect, test } from 'vitest'
import { nowMs } from '../../envs/core/clock.ts'
import { slackWorld } from './helpers.ts'

// users.list reads the team, the clock and the world users once per answer (userWireFacts, decision 0305); each
// member must still be what users.info, which reads them per user, answers.
describe('users.list', () => {
  test('each member is the users.info object of that user in every zone; cache_ts is the world clock', async () => {
    const w = slackWorld({
      name: 'slack-list-facts',
      now: '2026-07-15T12:00:00Z',
      users: [
        { id: 'ann', email: 'ann@example.com', name: 'Ann Lee', timeZone: 'America/New_York', title: 'Lead' },
        { id: 'ben', email: 'ben@example.com', name: 'Ben Ode', timeZone: 'Europe/Berlin' },
        { id: 'cat', email: 'cat@example.com', name: 'Cat Sun', timeZone: 'Asia/Tokyo' },
      ],
    })
    for (const viewer of ['ann', 'ben']) {
      const list = await w.api('users.list', {}, viewer)
      expect(list.ok).toBe(true)
      // The clock ticks per request: read it before the users.info calls below move it.
      expect(list.cache_ts).toBe(Math.floor(nowMs(w.h.entry.world.db) / 1000))
      const members = list.members as { id: string }[]
      expect(members.length).toBeGreaterThanOrEqual(3)
      for (const m of members) expect(m).toEqual((await w.api('users.info', { user: m.id }, viewer)).user)
      expect(members.map((m) => (m as { tz?: string }).tz)).toEqual(
        expect.arrayContaining(['America/New_York', 'Europe/Berlin', 'Asia/Tokyo']),
      )
    }
    const paged = await w.api('users.list', { limit: 2 }, 'ann')
    expect(paged.members).toHaveLength(2)
    expect(paged.response_metadata.next_cursor).not.toBe('')
  })
})
