import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSdkServer, type SdkServer } from './server.ts'
import { buildSlackGo, slackGo, slackGoUnavailable } from './slack-go.ts'
import { setRateLimits } from '../../envs/slack/ratelimit.ts'

// slack-go (Debian golang-github-slack-go-slack-dev 0.11) against this server over a real socket.
const unavailable = slackGoUnavailable()
if (unavailable)
  describe.skip(`slack-go: skipped, ${unavailable}`, () => {
    it.skip('needs Go', () => {})
  })

describe.skipIf(unavailable !== undefined)('slack-go', () => {
  let s: SdkServer
  let bin: string
  let env: Record<string, string>
  const ids: Record<string, string> = {}

  beforeAll(async () => {
    bin = buildSlackGo()
    s = await startSdkServer('demo')
    const token = (id: string) => s.tokens.find((t) => t.id === id)!.slackUserToken!
    env = { SLACK_API_URL: `${s.url}api/`, TOKEN_ALICE: token('alice'), TOKEN_BOB: token('bob') }
    env.TOKEN_CAROL = token('carol')
    const list = await s.slack('alice').conversations.list({ types: 'public_channel,private_channel', limit: 200 })
    for (const c of list.channels!) ids[c.name!] = c.id!
  }, 180_000)
  afterAll(async () => {
    await s?.close()
  })
  const go = (scenario: string, channel?: string) =>
    slackGo(bin, scenario, channel ? { ...env, CHANNEL: channel } : env)

  it('auth.test: identifies the token and reports invalid_auth for a bad one', async () => {
    const r = await go('auth')
    const me = await s.slack('alice').auth.test()
    expect(r).toMatchObject({ user_id: me.user_id, team_id: me.team_id, user: me.user })
    expect(r.bad_token).toMatchObject({ slack_error: 'invalid_auth' })
  })

  it('conversations.list: pages with cursors through every channel the user can see', async () => {
    const r = await go('list')
    const all = await s.slack('alice').conversations.list({ types: 'public_channel,private_channel', limit: 1000 })
    expect(r.ids).toEqual(all.channels!.map((c) => c.id))
    expect(r.pages).toBe(Math.ceil(all.channels!.length / 2))
  })

  it('chat.postMessage + conversations.replies: a thread written and read back', async () => {
    const r = await go('thread', ids.engineering)
    expect(r.texts).toEqual(['Go release notes?', 'Drafted in the doc'])
    expect(r).toMatchObject({ reply_count: 1, reply_thread_ts: r.parent, has_more: false })
  })

  it('conversations.history: pages newest first; system messages decode with their fields', async () => {
    const r = await go('history')
    expect(r.texts).toEqual(['m5', 'm4', 'm3', 'm2', 'm1'])
    expect(r.pages).toBe(4) // 5 messages, the creator's channel_join, the topic and the rename, 2 a page
    const alice = (await s.slack('alice').auth.test()).user_id
    expect(r.system).toEqual([
      { subtype: 'channel_name', user: alice, topic: '', name: 'go-history-2', old_name: 'go-history' },
      { subtype: 'channel_topic', user: alice, topic: 'Go topic', name: '', old_name: '' },
      { subtype: 'channel_join', user: alice, topic: '', name: '', old_name: '' },
    ])
  })

  it('files: upload v2 into a private channel, download by url_private_download, refused to outsiders', async () => {
    const r = await go('files', ids.leadership)
    expect(r.v2_failed).toBeUndefined()
    expect(r).toMatchObject({ name: 'plan.txt', size: 24, downloaded: 'quarterly plan\nline two\n' })
    expect(r.channels).toContain(ids.leadership)
    expect(new URL(r.url_private_download).origin).toBe(new URL(s.url).origin)
    expect(r.stranger).toMatchObject({ http_status: 404 })
    expect(r.stranger_bytes).toBe(0)
    expect(r.legacy_downloaded).toBe('legacy upload body')
  })

  it('error envelopes: channel_not_found, cant_delete_message, invalid_name, invalid_arguments', async () => {
    const r = await go('envelopes', ids.general)
    expect(r.info).toMatchObject({ slack_error: 'channel_not_found' })
    expect(r.empty_channel).toMatchObject({ slack_error: 'channel_not_found' })
    expect(r.delete_other).toMatchObject({ slack_error: 'cant_delete_message' })
    expect(r.bad_reaction).toMatchObject({ slack_error: 'invalid_name' })
    expect(r.good_reaction).toBeNull()
    const missing = { error: 'invalid_arguments', messages: ['[ERROR] missing required field: channel'] }
    expect(r.missing_channel).toEqual(missing)
  })

  it('rate limits: slack-go sees a RateLimitedError with Retry-After once the world switches them on', async () => {
    expect((await go('ratelimit')).ok_calls).toBe(10)
    s.entry.world.tx((db) => setRateLimits(db, { methods: { 'team.info': 3 } }))
    try {
      const r = await go('ratelimit')
      expect(r.ok_calls).toBe(3)
      expect(r.error.retry_after_s).toBeGreaterThan(0)
    } finally {
      s.entry.world.tx((db) => setRateLimits(db, null))
    }
  })
})
