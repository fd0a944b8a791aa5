import { createHash } from 'node:crypto'
import { describe, expect, test, vi } from 'vitest'
import { WorldKeys } from '../../envs/core/tokens.ts'
import { WorldManager } from '../../server/worlds.ts'
import { createAgentApp } from '../../server/app.ts'
import { createControlApp } from '../../server/control/app.ts'
import { getMeta } from '../../envs/core/clock.ts'

// Attacks on credentials, as an agent holding one world's tokens would try them (issue #12).

const ADMIN = 'admin-secret'
const seed = {
  name: 'sec',
  now: '2026-03-02T09:00:00Z',
  users: [
    { id: 'ann', email: 'ann@example.com', name: 'Ann Lee' },
    { id: 'ben', email: 'ben@example.com', name: 'Ben Ode' },
  ],
  slack: { bots: [{ id: 'helper', name: 'Helper' }] },
}

function server() {
  const worlds = new WorldManager()
  const agent = createAgentApp(worlds)
  const control = createControlApp(worlds, { adminToken: ADMIN })
  const admin = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${ADMIN}` }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await control.request(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, body: (await res.json()) as any }
  }
  const gmail = async (token: string) =>
    (await agent.request('/gmail/v1/users/me/profile', { headers: { authorization: `Bearer ${token}` } })).status
  const slack = async (token: string, method = 'auth.test', form: Record<string, string> = {}) => {
    const res = await agent.request(`/api/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    })
    return (await res.json()) as any
  }
  return { worlds, agent, control, admin, gmail, slack }
}

/** The token shape before issue #12: a key computed from public facts (seed name, seed value, user id). */
function computedKey(seedName: string, seedValue: number, kind: string, userId: string) {
  const salt = createHash('sha256').update(`${seedName}:${seedValue}`).digest('hex').slice(0, 16)
  return createHash('sha256').update(`${salt}\u0000token\u0000${kind}\u0000${userId}`).digest('hex').slice(0, 24)
}

describe('tokens cannot be forged', () => {
  test('a token with its world id swapped for another world of the same seed is refused', async () => {
    const s = server()
    const a = (await s.admin('POST', '/worlds', { id: 'wa', seed })).body
    await s.admin('POST', '/worlds', { id: 'wb', seed })
    const token: string = a.users[0].googleToken
    expect(await s.gmail(token)).toBe(200)
    expect(await s.gmail(token.replace('ya29.wa.', 'ya29.wb.'))).toBe(401)
    const slackToken: string = a.users[0].slackUserToken
    expect((await s.slack(slackToken)).ok).toBe(true)
    expect((await s.slack(slackToken.replace('xoxp-wa-', 'xoxp-wb-'))).error).toBe('invalid_auth')
    const bot: string = a.bots[0].token
    expect((await s.slack(bot.replace('xoxb-wa-', 'xoxb-wb-'))).error).toBe('invalid_auth')
  })

  test('tokens computed from the seed name, seed value and user id are refused (user and bot)', async () => {
    const s = server()
    const w = (await s.admin('POST', '/worlds', { id: 'wc', seed, seedValue: 3 })).body
    const key = computedKey('sec', 3, 'google', 'ann')
    // The public key part is the same as before; without the mac (or with a guessed one) nothing opens.
    expect(w.users[0].googleToken.startsWith(`ya29.wc.${key}`)).toBe(true)
    for (const guess of [
      `ya29.wc.${key}`,
      `ya29.wc.${key}${'0'.repeat(32)}`,
      `ya29.wc.${key}${key}${key.slice(0, 8)}`,
    ]) {
      expect(await s.gmail(guess)).toBe(401)
    }
    const slackKey = computedKey('sec', 3, 'slack_user', 'ben')
    expect((await s.slack(`xoxp-wc-${slackKey}${'f'.repeat(32)}`)).error).toBe('invalid_auth')
    const botKey = computedKey('sec', 3, 'slack_bot', w.bots[0].botUserId)
    expect((await s.slack(`xoxb-wc-${botKey}${'a'.repeat(32)}`)).error).toBe('invalid_auth')
  })

  test('two worlds of the same seed and seed value get different tokens, and each mac carries 128 bits', async () => {
    const s = server()
    const a = (await s.admin('POST', '/worlds', { id: 'w1', seed })).body
    const b = (await s.admin('POST', '/worlds', { id: 'w2', seed })).body
    const mac = (t: string) => t.slice(-32)
    expect(mac(a.users[0].googleToken)).not.toBe(mac(b.users[0].googleToken))
    expect(a.users[0].googleToken).toMatch(/^ya29\.w1\.[0-9a-f]{56}$/)
    expect(a.users[0].slackUserToken).toMatch(/^xoxp-w1-[0-9a-f]{56}$/)
  })

  test("a fork gets its own secret: the parent's tokens, with or without the id swapped, do not open it", async () => {
    const s = server()
    const parent = (await s.admin('POST', '/worlds', { id: 'par', seed })).body
    const fork = (await s.admin('POST', '/worlds/par/fork', { id: 'kid' })).body
    const token: string = parent.users[1].googleToken
    expect(await s.gmail(token.replace('ya29.par.', 'ya29.kid.'))).toBe(401)
    expect(await s.gmail(fork.users[1].googleToken)).toBe(200)
    expect(await s.gmail(fork.users[1].googleToken.replace('ya29.kid.', 'ya29.par.'))).toBe(401)
    expect(await s.gmail(token)).toBe(200)
  })

  test('worlds of equal seeds stay byte-identical: no secret is stored in the world database', async () => {
    const s = server()
    await s.admin('POST', '/worlds', { id: 'x1', seed })
    await s.admin('POST', '/worlds', { id: 'x2', seed })
    const one = s.worlds.get('x1').world.snapshot().bytes
    const two = s.worlds.get('x2').world.snapshot().bytes
    expect(one.equals(two)).toBe(true)
    expect(getMeta(s.worlds.get('x1').world.db, 'id_salt')).toBe(getMeta(s.worlds.get('x2').world.db, 'id_salt'))
  })
})

describe('WorldKeys.check', () => {
  test('verifies a token once, then repeats that verdict; a changed mac or another key set still fails', () => {
    const keys = WorldKeys.random('w1')
    const token = keys.token('google', 'ab'.repeat(12))
    const derive = vi.spyOn(keys, 'derive')
    try {
      expect(keys.check(token)).toEqual({ kind: 'google', key: 'ab'.repeat(12) })
      expect(keys.check(token)).toEqual({ kind: 'google', key: 'ab'.repeat(12) })
      expect(derive).toHaveBeenCalledTimes(1)
      const last = token.at(-1) === 'a' ? 'b' : 'a'
      expect(keys.check(token.slice(0, -1) + last)).toBeUndefined()
      expect(WorldKeys.random('w1').check(token)).toBeUndefined()
    } finally {
      derive.mockRestore()
    }
  })
})

describe('Slack secrets a member could compute before', () => {
  const manifest = {
    display_information: { name: 'Standup' },
    features: { bot_user: { display_name: 'standup' } },
    oauth_config: { scopes: { bot: ['chat:write'] } },
  }

  test("app client secrets differ between worlds of one seed, so one world cannot compute another's", async () => {
    const s = server()
    const a = (await s.admin('POST', '/worlds', { id: 'sa', seed })).body
    const b = (await s.admin('POST', '/worlds', { id: 'sb', seed })).body
    const ra = await s.slack(a.users[0].slackUserToken, 'apps.manifest.create', { manifest: JSON.stringify(manifest) })
    const rb = await s.slack(b.users[0].slackUserToken, 'apps.manifest.create', { manifest: JSON.stringify(manifest) })
    expect(ra.app_id).toBe(rb.app_id)
    expect(ra.credentials.client_secret).not.toBe(rb.credentials.client_secret)
    // World b's token with world a's credentials: refused.
    const bad = await s.slack(b.users[0].slackUserToken, 'oauth.v2.access', {
      client_id: rb.credentials.client_id,
      client_secret: ra.credentials.client_secret,
      code: 'x',
    })
    expect(bad.error).toBe('bad_client_secret')
  })

  test('an out-of-band upload URL needs its unguessable upload id: another world cannot write a pending upload', async () => {
    const s = server()
    const a = (await s.admin('POST', '/worlds', { id: 'ua', seed })).body
    const b = (await s.admin('POST', '/worlds', { id: 'ub', seed })).body
    const victim = await s.slack(b.users[0].slackUserToken, 'files.getUploadURLExternal', {
      filename: 'plan.txt',
      length: '4',
    })
    expect(victim.upload_url).toMatch(/\/_upload\/slack\/ub\/F[A-Z0-9]+\/[0-9a-f]{32}$/)
    const path = new URL(victim.upload_url).pathname
    // What world a can know: b's id and the (sequential) file id; and its own upload URL for the same file id.
    const mine = await s.slack(a.users[0].slackUserToken, 'files.getUploadURLExternal', {
      filename: 'x.txt',
      length: '4',
    })
    expect(mine.file_id).toBe(victim.file_id)
    const flipped = `${path.slice(0, -1)}${path.endsWith('0') ? '1' : '0'}`
    const guesses = [
      `/_upload/slack/ub/${victim.file_id}`,
      new URL(mine.upload_url).pathname.replace('/ua/', '/ub/'),
      flipped,
    ]
    for (const guess of guesses) {
      const res = await s.agent.request(guess, { method: 'POST', body: 'evil' })
      expect([guess, res.status]).toEqual([guess, 404])
    }
    // A world that does not exist answers exactly like one that does (no way to probe for episode ids).
    const missing = await s.agent.request(`/_upload/slack/nosuch/${victim.file_id}/${'0'.repeat(32)}`, {
      method: 'POST',
      body: 'x',
    })
    const present = await s.agent.request(`/_upload/slack/ub/${victim.file_id}/${'0'.repeat(32)}`, {
      method: 'POST',
      body: 'x',
    })
    expect([missing.status, await missing.text()]).toEqual([present.status, await present.text()])
    expect((await s.agent.request(path, { method: 'POST', body: 'good' })).status).toBe(200)
    const done = await s.slack(b.users[0].slackUserToken, 'files.completeUploadExternal', {
      files: JSON.stringify([{ id: victim.file_id }]),
    })
    expect(done.files[0].size).toBe(4)
  })
})

describe('secrets stay out of the world', () => {
  test('a token sent in the query string or a Slack body is logged without its mac', async () => {
    const s = server()
    const w = (await s.admin('POST', '/worlds', { id: 'lg', seed })).body
    const g: string = w.users[0].googleToken
    expect((await s.agent.request(`/gmail/v1/users/me/profile?access_token=${g}`)).status).toBe(200)
    const form = new URLSearchParams({ token: w.users[0].slackUserToken }).toString()
    await s.agent.request('/api/auth.test', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    })
    const log = JSON.stringify((await s.admin('GET', '/worlds/lg/actions')).body)
    expect(log).toContain(`access_token=${g.slice(0, -32)}<redacted>`)
    expect(log).not.toContain(g.slice(-32))
    expect(log).not.toContain(w.users[0].slackUserToken.slice(-32))
  })
})

describe('what the agent port tells about other worlds', () => {
  test('/healthz says nothing about how many worlds exist', async () => {
    const s = server()
    await s.admin('POST', '/worlds', { id: 'h1', seed })
    const body = await (await s.agent.request('/healthz')).json()
    expect(body).toEqual({ ok: true })
  })

  test("GET /worlds pages summaries without tokens; a world's tokens are on GET /worlds/{id} (admin only)", async () => {
    const s = server()
    for (const id of ['p1', 'p2', 'p3']) await s.admin('POST', '/worlds', { id, seed })
    const first = await s.admin('GET', '/worlds?pageSize=2')
    expect(first.body.worlds.map((w: { id: string }) => w.id)).toEqual(['p1', 'p2'])
    expect(first.body).toMatchObject({ total: 3, nextPageToken: 'p2' })
    expect(JSON.stringify(first.body)).not.toMatch(/ya29\.|xox[pb]-/)
    const second = await s.admin('GET', `/worlds?pageSize=2&pageToken=${first.body.nextPageToken}`)
    expect(second.body.worlds.map((w: { id: string }) => w.id)).toEqual(['p3'])
    expect(second.body.nextPageToken).toBeUndefined()
    expect((await s.admin('GET', '/worlds/p1')).body.users[0].googleToken).toMatch(/^ya29\.p1\./)
  })
})
