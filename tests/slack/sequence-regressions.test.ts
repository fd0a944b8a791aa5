import { describe, expect, it } from 'vitest'
import { passTime, slackWorld } from './helpers.ts'

// Bugs the sequence fuzzer found (tests/robustness/fuzz/, docs/decisions/0442), each reduced to its shortest run.

describe('reactions.add', () => {
  it('treats an alias and its emoji as one reaction, answered under the emoji’s own name', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const m = await w.api('chat.postMessage', { channel: id, text: 'ship it?' }, 'bob')
    expect((await w.api('reactions.add', { channel: id, timestamp: m.ts, name: 'thumbsup' })).ok).toBe(true)
    expect((await w.api('reactions.add', { channel: id, timestamp: m.ts, name: '+1' })).error).toBe('already_reacted')
    const got = await w.api('reactions.get', { channel: id, timestamp: m.ts })
    expect(got.message.reactions).toEqual([{ name: '+1', users: [await w.uid('alice')], count: 1 }])
    expect((await w.api('reactions.remove', { channel: id, timestamp: m.ts, name: 'thumbsup' })).ok).toBe(true)
    const after = await w.api('reactions.get', { channel: id, timestamp: m.ts })
    expect(after.message.reactions).toBeUndefined()
  })
})

describe('chat.delete', () => {
  async function tombstone() {
    const w = slackWorld()
    const id = await w.channel('general')
    const parent = await w.api('chat.postMessage', { channel: id, text: 'parent' })
    await w.api('chat.postMessage', { channel: id, text: 'reply', thread_ts: parent.ts }, 'bob')
    await w.api('reactions.add', { channel: id, timestamp: parent.ts, name: 'eyes' })
    await w.api('pins.add', { channel: id, timestamp: parent.ts })
    expect((await w.api('chat.delete', { channel: id, ts: parent.ts })).ok).toBe(true)
    return { w, id, ts: parent.ts as string }
  }
  it('takes the reactions and pin of a parent that stays as a tombstone', async () => {
    const { w, id, ts } = await tombstone()
    const pinned = (await w.api('pins.list', { channel: id })).items as { message: { ts: string } }[]
    expect(pinned.map((p) => p.message.ts)).not.toContain(ts)
    // The newest message is the pin's notice (pins.add posts one, 0480); the tombstone comes after it.
    const h = await w.api('conversations.history', { channel: id, limit: 2 })
    expect(h.messages[0]).toMatchObject({ subtype: 'pinned_item', item: { type: 'message', channel: id, ts } })
    expect(h.messages[1]).toMatchObject({ ts, subtype: 'tombstone' })
    expect(h.messages[1].reactions).toBeUndefined()
  })
  it('answers message_not_found for a tombstone, to edits, deletes, reactions and pins', async () => {
    const { w, id, ts } = await tombstone()
    expect((await w.api('chat.delete', { channel: id, ts })).error).toBe('message_not_found')
    expect((await w.api('chat.update', { channel: id, ts, text: 'back' })).error).toBe('message_not_found')
    expect((await w.api('reactions.add', { channel: id, timestamp: ts, name: 'tada' })).error).toBe('message_not_found')
    expect((await w.api('pins.add', { channel: id, timestamp: ts })).error).toBe('message_not_found')
    const h = await w.api('conversations.history', { channel: id, limit: 2 })
    expect(h.messages[1]).toMatchObject({ ts, subtype: 'tombstone', text: 'This message was deleted.' })
  })
})

describe('conversations.unarchive', () => {
  it('adds the caller to the channel, as Slack documents (docs/decisions/0445)', async () => {
    const w = slackWorld()
    const made = await w.api('conversations.create', { name: 'fz-unarchive' }, 'bob')
    const id = made.channel.id as string
    expect((await w.api('conversations.archive', { channel: id }, 'bob')).ok).toBe(true)
    expect((await w.api('conversations.unarchive', { channel: id })).ok).toBe(true)
    const members = (await w.api('conversations.members', { channel: id })).members as string[]
    expect(members.sort()).toEqual([await w.uid('alice'), await w.uid('bob')].sort())
    expect((await w.api('chat.postMessage', { channel: id, text: 'back' })).ok).toBe(true)
  })
})

describe('the clock passing scheduled work (docs/decisions/0448)', () => {
  it('posts each scheduled message at its post_at and fires each reminder at its time, in time order', async () => {
    const w = slackWorld()
    const id = await w.channel('general')
    const now = Math.floor(Number((await w.api('chat.postMessage', { channel: id, text: 'now' })).ts))
    await w.api('chat.scheduleMessage', { channel: id, text: 'second', post_at: now + 1200 }, 'bob')
    await w.api('chat.scheduleMessage', { channel: id, text: 'first', post_at: now + 600 })
    expect((await w.api('reminders.add', { text: 'stretch', time: now + 900 })).ok).toBe(true)
    passTime(w, 3600_000)
    const after = await w.api('chat.postMessage', { channel: id, text: 'after' })
    const h = await w.api('conversations.history', { channel: id, limit: 4 })
    const seen = (h.messages as { text: string; ts: string }[]).map((m) => [m.text, m.ts.split('.')[0]])
    expect(seen).toEqual([
      ['after', after.ts.split('.')[0]],
      ['second', String(now + 1200)],
      ['first', String(now + 600)],
      ['now', String(now)],
    ])
    const bot = (await w.api('conversations.open', { users: 'USLACKBOT' })).channel.id
    const fired = (await w.api('conversations.history', { channel: bot, limit: 1 })).messages[0]
    expect([fired.text, fired.ts.split('.')[0]]).toEqual(['Reminder: stretch.', String(now + 900)])
  })
})

describe('usergroups.create and usergroups.update (docs/decisions/0448)', () => {
  it('keep a name unique among groups and a handle unique among groups, users and channels', async () => {
    const w = slackWorld()
    const first = await w.api('usergroups.create', { name: 'Design', handle: 'design' })
    expect(first.ok).toBe(true)
    expect((await w.api('usergroups.create', { name: 'Design', handle: 'design-2' })).error).toBe('name_already_exists')
    expect((await w.api('usergroups.create', { name: 'Everyone', handle: 'general' })).error).toBe(
      'name_already_exists',
    )
    const second = await w.api('usergroups.create', { name: 'Ops', handle: 'ops' })
    const id = second.usergroup.id
    expect((await w.api('usergroups.update', { usergroup: id, name: 'Design' })).error).toBe('name_already_exists')
    expect((await w.api('usergroups.update', { usergroup: id, handle: 'general' })).error).toBe('name_already_exists')
    expect((await w.api('usergroups.update', { usergroup: id, name: 'Ops' })).ok).toBe(true)
    const names = (await w.api('usergroups.list')).usergroups.map((g: { name: string }) => g.name)
    expect(names.filter((n: string) => n === 'Design')).toHaveLength(1)
  })
})
