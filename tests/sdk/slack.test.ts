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
    await expect(s.slack('carol').conversations.history({ channel: dm.channel!.id! })).rejects.toMatchObject({
      data: { error: 'channel_not_found' },
    })
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
    const r = (await s.slack('alice').filesUploadV2({
      channel_id: gen,
      filename: 'plan.txt',
      content: 'step 1\nstep 2',
      title: 'Plan',
      initial_comment: 'the plan',
    })) as unknown as { ok: boolean; files: { files: { id: string }[] }[] }
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
    await expect(s.slack('carol').conversations.info({ channel: lead })).rejects.toMatchObject({
      data: { error: 'channel_not_found' },
    })
    await expect(s.slack('carol').chat.postMessage({ channel: lead, text: 'hi' })).rejects.toMatchObject({
      data: { error: 'channel_not_found' },
    })
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

describe('admin.conversations.create (WebClient)', () => {
  it('an admin creates and locks down a channel; a member is refused posting; a deactivated member is locked out', async () => {
    const admin = s.slack('alice')
    const team = (await admin.team.info()).team!.id!
    const created = await admin.admin.conversations.create({
      name: 'announcements-sdk',
      is_private: false,
      description: 'Company news',
      team_id: team,
    })
    const id = created.channel_id!
    const bob = (await s.slack('bob').auth.test()).user_id!
    await admin.admin.conversations.invite({ channel_id: id, user_ids: [bob] })
    await admin.admin.conversations.setConversationPrefs({ channel_id: id, prefs: { who_can_post: 'type:admin' } })
    await expect(s.slack('bob').chat.postMessage({ channel: id, text: 'hi' })).rejects.toMatchObject({
      data: { error: 'restricted_action' },
    })
    await admin.chat.postMessage({ channel: id, text: 'Welcome' })
    await expect(s.slack('bob').admin.users.list({ team_id: team })).rejects.toMatchObject({
      data: { error: 'missing_scope' },
    })
    expect((await admin.conversations.history({ channel: id, limit: 1 })).messages![0]!.text).toBe('Welcome')
  })
})

describe('canvases.create (WebClient)', () => {
  it('creates a canvas, finds a section and edits after it', async () => {
    const bob = s.slack('bob')
    const { canvas_id } = await bob.canvases.create({
      title: 'Runbook',
      document_content: { type: 'markdown', markdown: '# Deploy\nRun the pipeline\n# Rollback\nRevert the tag' },
    })
    const found = await bob.canvases.sections.lookup({
      canvas_id: canvas_id!,
      criteria: { section_types: ['h1'], contains_text: 'Rollback' },
    })
    expect(found.sections).toHaveLength(1)
    await bob.canvases.edit({
      canvas_id: canvas_id!,
      changes: [
        {
          operation: 'insert_after',
          section_id: found.sections![0]!.id!,
          document_content: { type: 'markdown', markdown: 'Page the on-call first' },
        },
      ],
    })
    const carol = (await s.slack('carol').auth.test()).user_id!
    await bob.canvases.access.set({ canvas_id: canvas_id!, access_level: 'read', user_ids: [carol] })
    const seen = await s
      .slack('carol')
      .canvases.sections.lookup({ canvas_id: canvas_id!, criteria: { contains_text: 'on-call' } })
    expect(seen.sections).toHaveLength(1)
  })
})

describe('slackLists.items.create (WebClient)', () => {
  it('builds a to-do list and ticks an item', async () => {
    const dan = s.slack('dan')
    const list = await dan.slackLists.create({ name: 'Renewals', todo_mode: true })
    const cols = list.list_metadata!.schema!
    const primary = cols.find((c) => c.is_primary_column)!.id!
    const done = cols.find((c) => c.type === 'todo_completed')!.id!
    const item = await dan.slackLists.items.create({
      list_id: list.list_id!,
      initial_fields: [{ column_id: primary, text: 'Globex renewal' } as never],
    })
    await dan.slackLists.items.update({
      list_id: list.list_id!,
      cells: [{ row_id: item.item!.id!, column_id: done, checkbox: true } as never],
    })
    const items = await dan.slackLists.items.list({ list_id: list.list_id! })
    expect(items.items![0]!.fields!.find((f) => f.column_id === done)).toMatchObject({ checkbox: true })
  })
})

describe('views.open (WebClient)', () => {
  it('opens a modal and updates it with its hash, then a stale hash conflicts', async () => {
    const bot = s.slack(s.worlds.botTokens(s.entry.id)[0]!.token)
    const view = {
      type: 'modal' as const,
      title: { type: 'plain_text' as const, text: 'Deploy' },
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Ship it?' } }],
    }
    const opened = await bot.views.open({ trigger_id: '1234.5678.abcdef', view })
    const updated = await bot.views.update({
      view_id: opened.view!.id!,
      hash: opened.view!.hash!,
      view: { ...view, title: { type: 'plain_text', text: 'Deployed' } },
    })
    expect(updated.view!.title!.text).toBe('Deployed')
    await expect(bot.views.update({ view_id: opened.view!.id!, hash: opened.view!.hash!, view })).rejects.toMatchObject(
      { data: { error: 'hash_conflict' } },
    )
  })
})

describe('users.setPhoto (WebClient)', () => {
  it('uploads a profile photo as multipart', async () => {
    const carol = s.slack('carol')
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
    await carol.users.setPhoto({ image: png })
    expect((await carol.users.profile.get({})).profile!.is_custom_image).toBe(true)
  })
})

// Runs last: it deactivates erin for the rest of this world.
describe('admin.users.remove (WebClient)', () => {
  it('deactivates a member whose token then answers account_inactive', async () => {
    const admin = s.slack('alice')
    const team = (await admin.team.info()).team!.id!
    const erin = (await s.slack('erin').auth.test()).user_id!
    await admin.admin.users.remove({ team_id: team, user_id: erin })
    await expect(s.slack('erin').auth.test()).rejects.toMatchObject({ data: { error: 'account_inactive' } })
    const users = await admin.admin.users.list({ team_id: team, limit: 100 })
    expect(users.users!.find((u) => u.id === erin)).toMatchObject({ is_active: false })
  })
})
