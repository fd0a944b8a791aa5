import { describe, expect, it } from 'vitest'
import { setMeta } from '../../envs/core/clock.ts'
import { slackWorld } from './helpers.ts'

describe('team.info (rate limiting)', () => {
  it('is unlimited unless the world opts in', async () => {
    const w = slackWorld()
    for (let i = 0; i < 5; i++) expect((await w.api('team.info')).ok).toBe(true)
  })
  it('answers 429 ratelimited with Retry-After past the tier limit, per caller, and recovers next window', async () => {
    const w = slackWorld()
    w.h.entry.world.tx((db) => setMeta(db, 'slack_rate_limit', JSON.stringify({ tiers: { '3': 2 } })))
    const call = (user: string) => w.h.call('POST', '/api/team.info', { token: w.h.slack(user), form: {} })
    expect((await call('alice')).status).toBe(200)
    expect((await call('alice')).status).toBe(200)
    const limited = await call('alice')
    expect(limited.status).toBe(429)
    expect(limited.body).toMatchObject({ ok: false, error: 'ratelimited' })
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await call('bob')).status).toBe(200)
    w.h.entry.world.tx((db) => setMeta(db, 'tick_ms', '61000'))
    await call('carol')
    expect((await call('alice')).status).toBe(200)
  })
})
