import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSdkServer, type SdkServer } from './server.ts'
import { setTick } from '../../envs/core/clock.ts'

let s: SdkServer
beforeAll(async () => {
  s = await startSdkServer('demo')
})
afterAll(async () => {
  await s.close()
})

const channelId = async (name: string, user = 'alice') => {
  const r = await s.slack(user).conversations.list({ types: 'public_channel,private_channel', limit: 200 })
  return r.channels!.find((c) => c.name === name)!.id!
}

describe('chat.postMessage (WebClient)', () => {
  it('posts in a thread and reads the replies', async () => {
    const bob = s.slack('bob')
    const eng = await channelId('engineering', 'bob')
    const parent = await bob.chat.postMessage({ channel: eng, text: 'Release checklist?' })
    await s.slack('carol').chat.postMessage({ channel: eng, text: 'Here it is', thread_ts: parent.ts! })
    const r = await bob.conversations.replies({ channel: eng, ts: parent.ts! })
    expect(r.messages!.map((m) => m.text)).toEqual(['Release checklist?', 'Here it is'])
    expect(r.messages![0]!.reply_count).toBe(1)
  })
})

describe('conversations.open (WebClient)', () => {
  it('opens a DM and two users talk in it', async () => {
    const dan = s.slack('dan')
    const erinId = (await s.slack('erin').auth.test()).user_id!
    const dm = await dan.conversations.open({ users: erinId })
    await dan.chat.postMessage({ channel: dm.channel!.id!, text: 'Lunch?' })
    const erin = s.slack('erin')
    await erin.chat.postMessage({ channel: dm.channel!.id!, text: 'Sure, noon.' })
    const h = await erin.conversations.history({ channel: dm.channel!.id!, limit: 2 })
    expect(h.messages!.map((m) => m.text)).toEqual(['Sure, noon.', 'Lunch?'])
    await expect(s.slack('carol').conversations.history({ channel: dm.channel!.id! })).rejects.toMatchObject({ data: { error: 'channel_not_found' } })
  })
})

describe('search.messages (WebClient)', () => {
  it('searches with modifiers', async () => {
    const eng = await channelId('engineering', 'bob')
    await s.slack('bob').chat.postMessage({ channel: eng, text: 'the walrus migration is done' })
    const r = await s.slack('carol').search.messages({ query: 'walrus from:@bob in:#engineering' })
    expect(r.messages!.total).toBe(1)
    const none = await s.slack('carol').search.messages({ query: 'walrus -migration' })
    expect(none.messages!.total).toBe(0)
  })
})

describe('files.completeUploadExternal (WebClient filesUploadV2)', () => {
  it('uploads a file with filesUploadV2 into a channel', async () => {
    const gen = await channelId('general')
    const r = (await s.slack('alice').filesUploadV2({ channel_id: gen, filename: 'plan.txt', content: 'step 1\nstep 2', title: 'Plan', initial_comment: 'the plan' })) as unknown as { ok: boolean; files: { files: { id: string }[] }[] }
    expect(r.ok).toBe(true)
    const fileId = r.files[0]!.files[0]!.id
    const info = await s.slack('bob').files.info({ file: fileId })
    expect(info.file!.title).toBe('Plan')
    expect(info.content).toBe('step 1\nstep 2')
    const h = await s.slack('bob').conversations.history({ channel: gen, limit: 1 })
    expect(h.messages![0]!.text).toBe('the plan')
  })
})

describe('chat.scheduleMessage (WebClient)', () => {
  it('schedules a message that appears after the clock advances', async () => {
    const gen = await channelId('general')
    const alice = s.slack('alice')
    const now = Math.floor(Number((await alice.chat.postMessage({ channel: gen, text: 'tick' })).ts))
    const sched = await alice.chat.scheduleMessage({ channel: gen, text: 'standup in 5', post_at: now + 1800 })
    expect(sched.scheduled_message_id).toBeTruthy()
    s.entry.world.tx((db) => setTick(db, 3600_000))
    await alice.auth.test()
    s.entry.world.tx((db) => setTick(db, 1000))
    const h = await alice.conversations.history({ channel: gen, limit: 1 })
    expect(h.messages![0]!.text).toBe('standup in 5')
  })
})

describe('conversations.info (WebClient)', () => {
  it('isolates a private channel from non-members', async () => {
    const lead = await channelId('leadership')
    await expect(s.slack('carol').conversations.info({ channel: lead })).rejects.toMatchObject({ data: { error: 'channel_not_found' } })
    await expect(s.slack('carol').chat.postMessage({ channel: lead, text: 'hi' })).rejects.toMatchObject({ data: { error: 'channel_not_found' } })
    const r = await s.slack('bob').conversations.info({ channel: lead })
    expect(r.channel!.is_private).toBe(true)
  })
})

describe('auth.test (WebClient bot token)', () => {
  it('authenticates the bot and posts as it', async () => {
    const token = s.worlds.botTokens(s.entry.id)[0]!.token
    const bot = s.slack(token)
    expect((await bot.auth.test()).bot_id).toMatch(/^B/)
    const eng = await channelId('engineering', 'bob')
    const r = await bot.chat.postMessage({ channel: eng, text: 'Deploy finished' })
    expect(r.message!.bot_id).toMatch(/^B/)
  })
})
