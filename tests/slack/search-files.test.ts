import { describe, expect, it } from 'vitest'
import { slackWorld } from './helpers.ts'
import { setClock } from '../../envs/core/clock.ts'

describe('search.messages', () => {
  it('matches words with in:, from:, quotes, exclusions and has:, never leaking private channels', async () => {
    const w = slackWorld()
    const eng = await w.channel('engineering')
    const lead = await w.channel('leadership')
    await w.api('chat.postMessage', { channel: eng, text: 'zebra rollout starts Monday' }, 'bob')
    const m2 = await w.api('chat.postMessage', { channel: eng, text: 'zebra rollout postponed' }, 'carol')
    await w.api('chat.postMessage', { channel: lead, text: 'zebra budget is secret' }, 'alice')
    await w.api('reactions.add', { channel: eng, timestamp: m2.ts, name: 'eyes' }, 'bob')
    const q = async (query: string, user = 'carol', extra = {}) =>
      (await w.api('search.messages', { query, ...extra }, user)).messages
    expect((await q('zebra')).total).toBe(2)
    expect((await q('zebra', 'alice')).total).toBe(3)
    expect((await q('zebra from:@carol')).matches[0].ts).toBe(m2.ts)
    expect((await q('zebra in:#engineering -postponed')).total).toBe(1)
    expect((await q('"rollout postponed"')).total).toBe(1)
    expect((await q('zebra has:reaction')).total).toBe(1)
    expect((await q('zebra before:2000-01-01')).total).toBe(0)
    const sorted = await q('zebra', 'alice', { sort: 'timestamp', sort_dir: 'asc' })
    expect(sorted.matches[0].text).toBe('zebra rollout starts Monday')
    const paged = await q('zebra', 'alice', { count: 1, page: 2 })
    expect(paged.matches).toHaveLength(1)
    expect(paged.paging).toMatchObject({ count: 1, total: 3, page: 2, pages: 3 })
    expect((await w.api('search.messages', {}, 'carol')).error).toBe('no_query')
  })

  it('negates modifiers; with:, has::emoji:, is:saved and trailing * words', async () => {
    const w = slackWorld()
    const eng = await w.channel('engineering')
    const gen = await w.channel('general')
    const parent = await w.api('chat.postMessage', { channel: eng, text: 'okapi migration plan' }, 'carol')
    await w.api('chat.postMessage', { channel: eng, text: 'okapi looks fine', thread_ts: parent.ts }, 'bob')
    const other = await w.api('chat.postMessage', { channel: gen, text: 'okapi lunch' }, 'carol')
    const dm = (await w.api('conversations.open', { users: await w.uid('bob') }, 'carol')).channel.id
    await w.api('chat.postMessage', { channel: dm, text: 'okapi in private' }, 'carol')
    await w.api('reactions.add', { channel: gen, timestamp: other.ts, name: 'tada' }, 'bob')
    await w.api('stars.add', { channel: eng, timestamp: parent.ts }, 'carol')
    const texts = async (query: string) =>
      ((await w.api('search.messages', { query, sort: 'timestamp' }, 'carol')).messages.matches as { text: string }[])
        .map((m) => m.text)
        .sort()
    expect(await texts('okapi')).toHaveLength(4)
    expect(await texts('okapi -from:@bob')).toEqual(['okapi in private', 'okapi lunch', 'okapi migration plan'])
    expect(await texts('okapi -in:#engineering')).toEqual(['okapi in private', 'okapi lunch'])
    expect(await texts('okapi -is:thread')).toEqual(['okapi in private', 'okapi lunch'])
    // with:@bob: the DM with him and the thread he replied in, not the channel message he only reacted to.
    expect(await texts('okapi with:@bob')).toEqual(['okapi in private', 'okapi looks fine', 'okapi migration plan'])
    expect(await texts('okapi has::tada:')).toEqual(['okapi lunch'])
    expect(await texts('okapi -has:reaction')).not.toContain('okapi lunch')
    expect(await texts('is:saved')).toEqual(['okapi migration plan'])
    expect(await texts('okap* lunch')).toEqual(['okapi lunch'])
  })

  it("reads dates in the searcher's time zone: on:, during: a month's name, today", async () => {
    const w = slackWorld()
    const gen = await w.channel('general')
    // 2026-03-03T03:00Z: still Monday 2 March for dan (Los Angeles), already Tuesday 3 March for carol (Stockholm).
    w.h.entry.world.tx((db) => setClock(db, Date.UTC(2026, 2, 3, 3)))
    await w.api('chat.postMessage', { channel: gen, text: 'quokka sighting' }, 'alice')
    const total = async (query: string, user: string) =>
      (await w.api('search.messages', { query: `quokka ${query}` }, user)).messages.total as number
    expect(await total('on:2026-03-02', 'dan')).toBe(1)
    expect(await total('on:2026-03-03', 'dan')).toBe(0)
    expect(await total('on:2026-03-03', 'carol')).toBe(1)
    expect(await total('on:today', 'carol')).toBe(1)
    expect(await total('on:yesterday', 'carol')).toBe(0)
    expect(await total('during:march', 'dan')).toBe(1)
    expect(await total('during:feb', 'dan')).toBe(0)
    expect(await total('after:2026-03-02', 'carol')).toBe(1)
    expect(await total('after:2026-03-02', 'dan')).toBe(0)
    expect(await total('-during:march', 'dan')).toBe(0) // a negated date excludes its span
    expect(await total('-on:2026-03-03', 'dan')).toBe(1)
    expect(await total('-before:2026-03-03', 'dan')).toBe(0)
  })

  it('answers the authors of the matches in users, with empty teams and bots, and 0 pages when nothing matches', async () => {
    const w = slackWorld()
    const eng = await w.channel('engineering')
    await w.api('chat.postMessage', { channel: eng, text: 'okapi sighting' }, 'bob')
    const bob = await w.uid('bob')
    const r = await w.api('search.messages', { query: 'okapi' }, 'carol')
    expect(Object.keys(r.users)).toEqual([bob])
    expect(r.users[bob]).toMatchObject({
      id: bob,
      name: 'bob',
      is_restricted: false,
      is_ultra_restricted: false,
      profile: { team: (await w.api('auth.test')).team_id },
    })
    expect(Object.keys(r.users[bob].profile).sort()).toEqual([
      'avatar_hash',
      'display_name',
      'first_name',
      'image_72',
      'real_name',
      'team',
    ])
    expect({ teams: r.teams, bots: r.bots }).toEqual({ teams: {}, bots: {} })
    const none = await w.api('search.messages', { query: 'nothingmatchesthis' }, 'carol')
    expect(none.users).toEqual({})
    expect(none.messages.pagination).toMatchObject({ total_count: 0, page_count: 0, first: 1, last: 0 })
    expect(none.messages.paging).toMatchObject({ total: 0, pages: 0 })
  })
})

describe('search.files', () => {
  it('finds uploaded files by name and content; search.all returns both kinds', async () => {
    const w = slackWorld()
    const eng = await w.channel('engineering')
    const up = await w.api(
      'files.upload',
      { content: 'quarterly kiwi numbers', filename: 'kiwi.txt', channels: eng },
      'bob',
    )
    expect(up.file.name).toBe('kiwi.txt')
    expect((await w.api('search.files', { query: 'kiwi' }, 'carol')).files.total).toBe(1)
    expect((await w.api('search.files', { query: 'kiwi' }, 'dan')).files.total).toBe(1)
    await w.api('chat.postMessage', { channel: eng, text: 'kiwi discussion' }, 'bob')
    const all = await w.api('search.all', { query: 'kiwi' }, 'bob')
    expect(all.files.total).toBe(1)
    expect(all.messages.total).toBe(1)
  })
})

describe('files.upload', () => {
  it('shares a file into a channel message; files.info, files.list and files.delete work on it', async () => {
    const w = slackWorld()
    const sales = await w.channel('sales')
    const f = (
      await w.api('files.upload', { content: 'a,b\n1,2', filename: 'data.csv', title: 'Data', channels: sales }, 'dan')
    ).file
    expect(f).toMatchObject({ name: 'data.csv', title: 'Data', filetype: 'csv', size: 7, channels: [sales] })
    expect((await w.api('files.info', { file: f.id }, 'erin')).content).toBe('a,b\n1,2')
    expect((await w.api('files.list', { channel: sales }, 'dan')).files.map((x: { id: string }) => x.id)).toEqual([
      f.id,
    ])
    const h = await w.api('conversations.history', { channel: sales, limit: 1 }, 'dan')
    expect(h.messages[0].files[0].id).toBe(f.id)
    expect((await w.api('files.delete', { file: f.id }, 'erin')).error).toBe('cant_delete_file')
    expect((await w.api('files.delete', { file: f.id }, 'dan')).ok).toBe(true)
    expect((await w.api('files.info', { file: f.id }, 'dan')).error).toBe('file_not_found')
    expect((await w.api('files.upload', { filename: 'x' }, 'dan')).error).toBe('no_file_data')
  })
  it('keeps files in private channels from non-members', async () => {
    const w = slackWorld()
    const lead = await w.channel('leadership')
    const f = (await w.api('files.upload', { content: 'salaries', filename: 'comp.txt', channels: lead })).file
    expect((await w.api('files.info', { file: f.id }, 'carol')).error).toBe('file_not_found')
    expect((await w.api('files.list', {}, 'carol')).files.map((x: { id: string }) => x.id)).not.toContain(f.id)
  })
})

describe('files.getUploadURLExternal', () => {
  it('returns an upload URL we serve; files.completeUploadExternal finishes and shares', async () => {
    const w = slackWorld()
    const gen = await w.channel('general')
    const u = await w.api('files.getUploadURLExternal', { filename: 'notes.txt', length: 5 })
    expect(u.upload_url).toContain(`/_upload/slack/test/${u.file_id}`)
    const path = new URL(u.upload_url).pathname
    expect(
      (
        await w.h.call('POST', path, {
          body: 'hello',
          token: null,
          headers: { 'content-type': 'application/octet-stream' },
        })
      ).status,
    ).toBe(200)
    expect((await w.api('files.info', { file: u.file_id })).error).toBe('file_not_found')
    const done = await w.api('files.completeUploadExternal', {
      files: [{ id: u.file_id, title: 'Notes' }],
      channel_id: gen,
      initial_comment: 'see notes',
    })
    expect(done.files[0]).toMatchObject({ id: u.file_id, title: 'Notes', size: 5 })
    expect((await w.api('files.info', { file: u.file_id }, 'bob')).content).toBe('hello')
    expect((await w.api('files.completeUploadExternal', { files: [{ id: u.file_id }] })).error).toBe('file_not_found')
    expect((await w.h.call('POST', path, { body: 'again', token: null })).status).toBe(404)
    expect((await w.api('files.getUploadURLExternal', { filename: 'x' })).error).toBe('invalid_arguments')
  })
})

describe('files.sharedPublicURL', () => {
  it('makes a file public and files.revokePublicURL revokes it', async () => {
    const w = slackWorld()
    const f = (await w.api('files.upload', { content: 'x', filename: 'x.txt' })).file
    expect((await w.api('files.sharedPublicURL', { file: f.id })).file.public_url_shared).toBe(true)
    expect((await w.api('files.sharedPublicURL', { file: f.id })).error).toBe('already_public')
    expect((await w.api('files.revokePublicURL', { file: f.id })).file.public_url_shared).toBe(false)
  })
})
