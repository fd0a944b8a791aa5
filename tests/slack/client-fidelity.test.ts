import { describe, expect, it } from 'vitest'
import { slackWorld } from './helpers.ts'
import { methodsWithRequiredArgs, requiredArgsOf } from '../../envs/slack/required.ts'
import { WorldManager } from '../../server/worlds.ts'
import { createAgentApp } from '../../server/app.ts'
import { createControlApp } from '../../server/control/app.ts'

// What official clients (slack-go, @slack/web-api, python-slack-sdk) rely on beyond the happy path: error codes,
// argument checking, file hosting, system messages, content types and rate limits.

describe('chat.delete', () => {
  it("answers cant_delete_message for another member's message and leaves it in place", async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const m = await w.api('chat.postMessage', { channel: id, text: 'mine' }, 'bob')
    const r = await w.api('chat.delete', { channel: id, ts: m.ts }, 'carol')
    expect(r).toEqual({ ok: false, error: 'cant_delete_message' })
    const h = await w.api('conversations.history', { channel: id, limit: 1 })
    expect(h.messages[0].ts).toBe(m.ts)
    const update = await w.api('chat.update', { channel: id, ts: m.ts, text: 'x' }, 'carol')
    expect(update.error).toBe('cant_update_message')
  })
  it("lets a workspace admin delete anyone's message, but a bot only its own", async () => {
    const w = slackWorld()
    const id = await w.channel('engineering')
    const m = await w.api('chat.postMessage', { channel: id, text: 'oops' }, 'bob')
    expect((await w.api('chat.delete', { channel: id, ts: m.ts }, w.bot())).error).toBe('cant_delete_message')
    expect((await w.api('chat.delete', { channel: id, ts: m.ts }, 'alice')).ok).toBe(true)
  })
})

describe('reactions.add', () => {
  it('answers invalid_name for a well-formed name that is no emoji, and adds nothing', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const m = await w.api('chat.postMessage', { channel: id, text: 'react to me' }, 'bob')
    const bad = ['not_an_emoji_at_all', 'thumbsup::skin-tone-7', 'eyes::skin-tone-3', 'shipit::skin-tone-2', 'a::b::c']
    for (const name of bad) {
      expect((await w.api('reactions.add', { channel: id, timestamp: m.ts, name })).error, name).toBe('invalid_name')
    }
    const got = await w.api('reactions.get', { channel: id, timestamp: m.ts })
    expect(got.message.reactions).toBeUndefined()
  })
  it('accepts standard short names and aliases, skin tones where the emoji has them, and custom emoji', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const m = await w.api('chat.postMessage', { channel: id, text: 'react to me' }, 'bob')
    const names = ['thumbsup', ':tada:', 'thumbsup::skin-tone-3', 'white_check_mark', 'star-struck', 'shipit']
    const react = (name: string) => w.api('reactions.add', { channel: id, timestamp: m.ts, name })
    for (const name of names) expect((await react(name)).ok, name).toBe(true)
    expect((await react('+1')).error).toBe('already_reacted')
    expect((await react('llama_approves')).error).toBe('invalid_name')
    expect((await w.api('admin.emoji.add', { name: 'llama_approves', url: 'https://example.com/p.gif' })).ok).toBe(true)
    expect(Object.keys((await w.api('emoji.list')).emoji)).toContain('llama_approves')
    expect((await react('llama_approves')).ok).toBe(true)
  })
})

describe('files.info (url_private)', () => {
  async function privateFile() {
    const w = slackWorld()
    const leadership = await w.channel('leadership')
    const up = await w.api('files.upload', { content: 'Q3 numbers: 42', filename: 'q3.txt', channels: leadership })
    expect(up.ok).toBe(true)
    return { w, file: up.file as { id: string; url_private: string; url_private_download: string } }
  }
  const get = (w: ReturnType<typeof slackWorld>, url: string, token: string | null) =>
    w.h.call('GET', new URL(url).pathname, { token })

  it("serves the bytes on this server's origin to a member's Bearer token, inline and as a download", async () => {
    const { w, file } = await privateFile()
    expect(new URL(file.url_private).origin).toBe('http://localhost')
    expect(file.url_private).toContain(`/files-pri/`)
    const r = await get(w, file.url_private, w.h.slack('alice'))
    expect(r.status).toBe(200)
    expect(r.text).toBe('Q3 numbers: 42')
    expect(r.headers.get('content-type')).toBe('text/plain')
    const d = await get(w, file.url_private_download, w.h.slack('alice'))
    expect(d.text).toBe('Q3 numbers: 42')
    expect(d.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''q3.txt")
    const info = await w.api('files.info', { file: file.id }, 'alice')
    expect(info.file.url_private).toBe(file.url_private)
  })
  it('answers 404 to a member who cannot see the file, and the sign-in page without a usable token', async () => {
    const { w, file } = await privateFile()
    const carol = await get(w, file.url_private, w.h.slack('carol'))
    expect(carol.status).toBe(404)
    expect(carol.text).not.toContain('Q3')
    for (const token of [null, 'xoxp-nope', w.h.google('alice')]) {
      const r = await get(w, file.url_private_download, token)
      expect(r.status, String(token)).toBe(200)
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(r.text).toContain('Sign in')
      expect(r.text).not.toContain('Q3')
    }
  })
  it("refuses another world's token even for the same path", async () => {
    const { w, file } = await privateFile()
    const other = w.h.worlds.create({ id: 'other', seed: 'demo', seedValue: 1 })
    const stranger = w.h.worlds.credentials(other.id).find((u) => u.id === 'alice')!.slackUserToken!
    const r = await get(w, file.url_private, stranger)
    expect(r.text).toContain('Sign in')
  })
  it('stops serving a deleted file and serves a file shared into a channel once the member joins', async () => {
    const w = slackWorld()
    const random = await w.channel('random')
    const up = await w.api('files.upload', { content: 'hello', filename: 'hi.txt', channels: random }, 'bob')
    const url = up.file.url_private as string
    expect((await get(w, url, w.h.slack('erin'))).status).toBe(200) // public channel: every member can see it
    expect((await w.api('files.delete', { file: up.file.id }, 'bob')).ok).toBe(true)
    expect((await get(w, url, w.h.slack('bob'))).status).toBe(404)
  })
  it('gives images thumb_* URLs that serve the image', async () => {
    const w = slackWorld()
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')
    const form = new FormData()
    form.set('file', new Blob([png], { type: 'image/png' }), 'dot.png')
    form.set('channels', await w.channel('general'))
    const bearer = (user: string) => ({ authorization: `Bearer ${w.h.slack(user)}` })
    const res = await w.h.app.request('/api/files.upload', { method: 'POST', body: form, headers: bearer('alice') })
    const file = ((await res.json()) as { file: Record<string, string> }).file
    expect(file.thumb_64).toBeDefined()
    const r = await w.h.app.request(new URL(file.thumb_360!).pathname, { headers: bearer('bob') })
    expect(r.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await r.arrayBuffer()).equals(png)).toBe(true)
  })
})

describe('conversations.setTopic (system messages)', () => {
  it('records topic, purpose, rename, invite, join, leave and archive with their documented fields', async () => {
    const w = slackWorld()
    const alice = await w.uid('alice')
    const carol = await w.uid('carol')
    const created = await w.api('conversations.create', { name: 'launch' })
    const id = created.channel.id as string
    await w.api('conversations.setTopic', { channel: id, topic: 'Ship v2' })
    await w.api('conversations.setPurpose', { channel: id, purpose: 'Coordinate the launch' })
    await w.api('conversations.rename', { channel: id, name: 'launch-v2' })
    await w.api('conversations.invite', { channel: id, users: carol })
    await w.api('conversations.join', { channel: id }, 'bob')
    await w.api('conversations.leave', { channel: id }, 'bob')
    await w.api('conversations.archive', { channel: id })
    const h = await w.api('conversations.history', { channel: id, limit: 20 })
    const bySubtype = (s: string) => (h.messages as Record<string, unknown>[]).filter((m) => m.subtype === s)
    expect(bySubtype('channel_topic')[0]).toMatchObject({
      user: alice,
      topic: 'Ship v2',
      text: `<@${alice}> set the channel topic: Ship v2`,
    })
    expect(bySubtype('channel_purpose')[0]).toMatchObject({
      purpose: 'Coordinate the launch',
      text: `<@${alice}> set the channel purpose: Coordinate the launch`,
    })
    expect(bySubtype('channel_name')[0]).toMatchObject({
      name: 'launch-v2',
      old_name: 'launch',
      text: `<@${alice}> has renamed the channel from "launch" to "launch-v2"`,
    })
    const joins = bySubtype('channel_join')
    const invited = joins.find((m) => m.user === carol)
    expect(invited).toMatchObject({ inviter: alice, text: `<@${carol}> has joined the channel` })
    expect(joins.find((m) => m.user === alice)).not.toHaveProperty('inviter')
    expect(joins.find((m) => m.user !== alice && m.user !== carol)).not.toHaveProperty('inviter')
    expect(bySubtype('channel_leave')).toHaveLength(1)
    const archived = bySubtype('channel_archive')[0]!
    expect(archived).toMatchObject({ user: alice, text: `<@${alice}> archived the channel` })
    expect(archived.members).toEqual(expect.arrayContaining([alice, carol]))
  })
})

describe('chat.postMessage (required arguments)', () => {
  it('answers invalid_arguments naming a missing field, and channel_not_found for an empty one', async () => {
    const w = slackWorld()
    const missing = await w.api('chat.postMessage', { text: 'hi' }, 'alice', true)
    expect(missing).toEqual({
      ok: false,
      error: 'invalid_arguments',
      warning: 'missing_charset',
      response_metadata: { messages: ['[ERROR] missing required field: channel'], warnings: ['missing_charset'] },
    })
    expect((await w.api('chat.postMessage', { channel: '', text: 'hi' })).error).toBe('channel_not_found')
    const id = await w.channel('general')
    const noTs = await w.api('conversations.replies', { channel: id })
    expect(noTs.response_metadata.messages).toEqual(['[ERROR] missing required field: ts'])
    const del = await w.api('chat.delete', { channel: id })
    expect(del.response_metadata.messages).toEqual(['[ERROR] missing required field: ts'])
  })
  it('checks every method with required arguments before anything else happens', async () => {
    const w = slackWorld()
    const methods = methodsWithRequiredArgs()
    expect(methods.length).toBeGreaterThan(100)
    for (const method of methods) {
      const r = await w.api(method, {}, 'alice')
      expect(r, method).toMatchObject({ ok: false, error: 'invalid_arguments' })
      const first = requiredArgsOf(method)[0]
      expect(r.response_metadata.messages, method).toEqual([`[ERROR] missing required field: ${first}`])
    }
  })
})

describe('files.getUploadURLExternal (upload URL)', () => {
  it('accepts bytes only at the URL it issued: a guessed URL for a pending file is refused', async () => {
    const w = slackWorld()
    const u = await w.api('files.getUploadURLExternal', { filename: 'n.txt', length: 4 }, 'bob')
    const path = new URL(u.upload_url).pathname
    const post = (p: string, body: string) =>
      w.h.call('POST', p, { body, token: null, headers: { 'content-type': 'text/plain' } })
    expect((await post(`/_upload/slack/test/${u.file_id}`, 'evil')).status).toBe(404)
    expect((await post(`${path.slice(0, -4)}0000`, 'evil')).status).toBe(404)
    expect((await post(path, 'good')).status).toBe(200)
    const general = await w.channel('general')
    await w.api('files.completeUploadExternal', { files: [{ id: u.file_id }], channel_id: general }, 'bob')
    expect((await w.api('files.info', { file: u.file_id }, 'bob')).content).toBe('good')
  })
})

describe('files.getUploadURLExternal (required arguments)', () => {
  it('names length when it is missing or unusable', async () => {
    const w = slackWorld()
    const r = await w.api('files.getUploadURLExternal', { filename: 'a.txt' })
    const messages = ['[ERROR] missing required field: length']
    expect(r).toMatchObject({ error: 'invalid_arguments', response_metadata: { messages } })
    const zero = await w.api('files.getUploadURLExternal', { filename: 'a.txt', length: '0' })
    expect(zero.response_metadata.messages[0]).toContain('[json-pointer:/length]')
    const noName = await w.api('files.getUploadURLExternal', { length: '5' })
    expect(noName.response_metadata.messages[0]).toContain('filename')
  })
})

describe('auth.test (content type)', () => {
  it('answers application/json; charset=utf-8 for results, errors and unknown methods', async () => {
    const w = slackWorld()
    const type = async (path: string, token: string | null) =>
      (await w.h.call('POST', path, { form: {}, token })).headers.get('content-type')
    expect(await type('/api/auth.test', w.h.slack('alice'))).toBe('application/json; charset=utf-8')
    expect(await type('/api/auth.test', 'xoxp-garbage')).toBe('application/json; charset=utf-8')
    expect(await type('/api/conversations.info', w.h.slack('alice'))).toBe('application/json; charset=utf-8')
    expect(await type('/api/no.such.method', w.h.slack('alice'))).toBe('application/json; charset=utf-8')
  })
})

describe('team.info (rate limits switched on)', () => {
  const seed = {
    users: [
      { id: 'ann', email: 'ann@example.com', name: 'Ann Lee' },
      { id: 'ben', email: 'ben@example.com', name: 'Ben Ode' },
    ],
    slack: { channels: [{ name: 'general', general: true }], rateLimits: { tiers: { '3': 2 } } },
  }
  it('from the seed: 429 ratelimited with Retry-After and a JSON body past the tier limit', async () => {
    const w = slackWorld(seed)
    const call = () => w.h.call('POST', '/api/team.info', { token: w.h.slack('ann'), form: {} })
    expect((await call()).status).toBe(200)
    expect((await call()).status).toBe(200)
    const limited = await call()
    expect(limited.status).toBe(429)
    expect(limited.body).toEqual({ ok: false, error: 'ratelimited' })
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(limited.headers.get('content-type')).toBe('application/json; charset=utf-8')
  })
  it('from the control plane: PUT switches limits on and off, GET reads them', async () => {
    const worlds = new WorldManager()
    const control = createControlApp(worlds, { adminToken: 'adm' })
    const agent = createAgentApp(worlds)
    const ctl = async (method: string, body?: unknown) => {
      const headers: Record<string, string> = { authorization: 'Bearer adm', 'content-type': 'application/json' }
      const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }
      const res = await control.request('/worlds/rl/rate-limits', init)
      return { status: res.status, body: (await res.json()) as Record<string, unknown> }
    }
    worlds.create({ id: 'rl', seed: 'demo', seedValue: 1 })
    const token = worlds.credentials('rl').find((u) => u.id === 'bob')!.slackUserToken!
    const call = async () =>
      (await agent.request('/api/emoji.list', { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status
    expect((await ctl('GET')).body).toEqual({ enabled: false })
    for (let i = 0; i < 3; i++) expect(await call()).toBe(200)
    const on = await ctl('PUT', { enabled: true, methods: { 'emoji.list': 1 } })
    expect(on.body).toMatchObject({ enabled: true, methods: { 'emoji.list': 1 }, tiers: { '2': 20 } })
    expect(await call()).toBe(200)
    expect(await call()).toBe(429)
    expect((await ctl('GET')).body.enabled).toBe(true)
    expect((await ctl('PUT', { enabled: false })).body).toEqual({ enabled: false })
    expect(await call()).toBe(200)
    expect((await ctl('PUT', { enabled: true, tiers: { '9': 1 } })).status).toBe(400)
    const unknown = await control.request('/worlds/nope/rate-limits', { headers: { authorization: 'Bearer adm' } })
    expect(unknown.status).toBe(404)
  })
})
