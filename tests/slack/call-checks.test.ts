import { describe, expect, it } from 'vitest'
import { setMeta } from '../../envs/core/clock.ts'
import { slackWorld } from './helpers.ts'

// The checks every Slack call passes before its method (envs/slack/call-checks.ts): rate limit, then an inactive
// account, then required arguments, with one read for the first two.

const remove = async (w: ReturnType<typeof slackWorld>, user: string) => {
  const team = (await w.api('team.info')).team.id as string
  expect((await w.api('admin.users.remove', { team_id: team, user_id: await w.uid(user) })).ok).toBe(true)
}

describe('Slack call checks', () => {
  it("counts a removed member's calls against the limit before answering account_inactive", async () => {
    const w = slackWorld()
    await remove(w, 'dan')
    w.h.entry.world.tx((db) => setMeta(db, 'slack_rate_limit', JSON.stringify({ tiers: { '4': 2 } })))
    expect((await w.api('auth.test', {}, 'dan')).error).toBe('account_inactive')
    expect((await w.api('auth.test', {}, 'dan')).error).toBe('account_inactive')
    const limited = await w.h.call('POST', '/api/auth.test', { token: w.h.slack('dan'), form: {} })
    expect([limited.status, limited.body.error]).toEqual([429, 'ratelimited'])
    const counted = w.h.entry.world.sqlite.prepare("SELECT count FROM slack_rate_counts WHERE method = 'auth.test'")
    expect(counted.pluck().get()).toBe(3)
  })

  it('answers account_inactive before a missing required argument, and the argument error to an active member', async () => {
    const w = slackWorld()
    expect((await w.api('conversations.info', {}, 'dan')).response_metadata.messages).toEqual([
      '[ERROR] missing required field: channel',
    ])
    await remove(w, 'dan')
    expect((await w.api('conversations.info', {}, 'dan')).error).toBe('account_inactive')
    // A broken rate-limit setting never takes the API down; an empty one is off.
    w.h.entry.world.tx((db) => setMeta(db, 'slack_rate_limit', '{broken'))
    expect((await w.api('auth.test')).ok).toBe(true)
    w.h.entry.world.tx((db) => setMeta(db, 'slack_rate_limit', ''))
    expect((await w.api('auth.test')).ok).toBe(true)
  })

  it("reads the rate-limit setting and the caller's flag in one statement", async () => {
    const w = slackWorld()
    const token = w.h.slack('alice')
    await w.h.call('POST', '/api/auth.test', { token, form: {} })
    const proto = Object.getPrototypeOf(w.h.entry.world.sqlite.prepare('SELECT 1')) as Record<string, unknown>
    const original = proto.get as (...a: unknown[]) => unknown
    const ran: string[] = []
    proto.get = function (this: { source: string }, ...args: unknown[]) {
      ran.push(this.source)
      return original.apply(this, args)
    }
    try {
      expect((await w.h.call('POST', '/api/auth.test', { token, form: {} })).body.ok).toBe(true)
    } finally {
      proto.get = original
    }
    expect(ran.filter((sql) => sql.includes('slack_rate_limit') || sql.includes('SELECT deleted'))).toHaveLength(1)
  })
})
