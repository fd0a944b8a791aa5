import { describe, expect, test } from 'vitest'
import { harness, type Harness } from '../../envs/core/testing/harness.ts'
import { findUserByEmail } from '../../envs/core/users.ts'
import { deleteMessage, modifyLabels } from '../../envs/gmail/store/messages.ts'
import { deleteMessagesOfMany, modifyLabelsOfMany } from '../../envs/gmail/store/message-batch.ts'

// batchModify, batchDelete and threads.modify/delete read once per batch (envs/gmail/store/message-batch.ts,
// docs/decisions/0344); the reference is what they ran before: modifyLabels or deleteMessage per message, in the
// batch's order. Both must leave the same database bytes (rows, rowids and page layout).

const U = '/gmail/v1/users/me'
type Ref = { id: string; threadId: string }

function gmailTables(h: Harness): Record<string, unknown[]> {
  const client = h.entry.world.db.$client
  const sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'gmail_%' ORDER BY name"
  const names = client.prepare(sql).pluck().all() as string[]
  return Object.fromEntries(
    names.map((t) => [t, client.prepare(`SELECT rowid AS _rowid, * FROM "${t}" ORDER BY rowid`).all()]),
  )
}

async function userIdOf(h: Harness): Promise<string> {
  const email = (await h.call('GET', `${U}/profile`)).body.emailAddress as string
  return findUserByEmail(h.entry.world.db, email)!.id
}

async function allRefs(h: Harness, q = ''): Promise<Ref[]> {
  const refs: Ref[] = []
  let pageToken: string | undefined
  do {
    const page = new URLSearchParams({ maxResults: '500', includeSpamTrash: 'true', q })
    if (pageToken) page.set('pageToken', pageToken)
    const body = (await h.call('GET', `${U}/messages?${page}`)).body as { messages?: Ref[]; nextPageToken?: string }
    refs.push(...(body.messages ?? []))
    pageToken = body.nextPageToken
  } while (pageToken)
  return refs
}

const bytesOf = (h: Harness) => Buffer.from(h.entry.world.db.$client.serialize())

describe('modifyLabelsOfMany and deleteMessagesOfMany', () => {
  test('leave the bytes that the per-message calls leave', async () => {
    const fast = harness('demo')
    const slow = harness('demo')
    const userId = await userIdOf(fast)
    const all = await allRefs(fast)
    await userIdOf(slow)
    await allRefs(slow)
    const ids = all.map((r) => r.id)
    expect(bytesOf(fast).equals(bytesOf(slow))).toBe(true)
    const steps: [Ref[], string[], string[]][] = [
      [all, ['STARRED'], []],
      [all.filter((_, i) => i % 3 === 0), [], ['INBOX', 'UNREAD']],
      [[...all.slice(0, 9), ...all.slice(4, 12)], ['INBOX', 'IMPORTANT'], ['STARRED']],
      [all, ['UNREAD'], ['UNREAD']],
    ]
    const both = (fn: (h: Harness) => void) => {
      fn(fast)
      fn(slow)
    }
    for (const [refs, add, remove] of steps) {
      fast.entry.world.tx((db) => modifyLabelsOfMany(db, userId, refs, add, remove))
      slow.entry.world.tx((db) => refs.forEach((r) => modifyLabels(db, userId, r.id, add, remove, r.threadId)))
      expect(bytesOf(fast).equals(bytesOf(slow))).toBe(true)
    }
    // History ids that change stored size on the way (32,767 → 32,768) are taken one by one, as before.
    both((h) => h.entry.world.db.$client.prepare('UPDATE gmail_mailboxes SET history_id = 32760').run())
    const first20 = all.slice(0, 20)
    fast.entry.world.tx((db) => modifyLabelsOfMany(db, userId, first20, ['STARRED'], ['IMPORTANT']))
    slow.entry.world.tx((db) => first20.forEach((r) => modifyLabels(db, userId, r.id, ['STARRED'], ['IMPORTANT'])))
    expect(bytesOf(fast).equals(bytesOf(slow))).toBe(true)
    const doomed = [...ids.slice(10, 30), 'ffffffffffffffff', ...ids.slice(25, 35)]
    fast.entry.world.tx((db) => deleteMessagesOfMany(db, userId, doomed))
    slow.entry.world.tx((db) => doomed.forEach((id) => deleteMessage(db, userId, id)))
    expect(bytesOf(fast).equals(bytesOf(slow))).toBe(true)
    const count = fast.entry.world.db.$client.prepare('SELECT count(*) FROM gmail_messages WHERE user_id = ?')
    expect(count.pluck().get(userId)).toBe(ids.length - 25)
  })
})

describe('gmail.users.messages.batchModify', () => {
  test('writes the rows that modifyLabels per message writes, under the same rowids', async () => {
    const fast = harness('demo')
    const slow = harness('demo')
    const userId = await userIdOf(fast)
    const label = (await fast.call('POST', `${U}/labels`, { json: { name: 'Processed' } })).body.id as string
    await slow.call('POST', `${U}/labels`, { json: { name: 'Processed' } })
    const all = await allRefs(fast)
    expect(all.length).toBeGreaterThan(20)
    const inbox = await allRefs(fast, 'in:inbox')
    const twice = [...all.slice(0, 5), ...all.slice(3, 8)]
    const steps: { refs: Ref[]; add: string[]; remove: string[] }[] = [
      { refs: all, add: [label], remove: [] },
      { refs: inbox, add: [], remove: ['INBOX'] },
      { refs: twice, add: ['STARRED', 'INBOX'], remove: [label, 'UNREAD'] },
      { refs: all, add: ['UNREAD', 'IMPORTANT'], remove: ['UNREAD'] },
      { refs: all.slice(0, 30), add: [], remove: ['TRASH'] },
      { refs: all.slice(10, 40).reverse(), add: [label], remove: ['STARRED'] },
    ]
    for (const { refs, add, remove } of steps) {
      const json = { ids: refs.map((r) => r.id), addLabelIds: add, removeLabelIds: remove }
      expect((await fast.call('POST', `${U}/messages/batchModify`, { json })).status).toBe(204)
      slow.entry.world.tx((db) => refs.forEach((r) => modifyLabels(db, userId, r.id, add, remove, r.threadId)))
      expect(gmailTables(fast)).toEqual(gmailTables(slow))
    }
    const got = await fast.call('GET', `${U}/messages/${all[0]!.id}?format=minimal`)
    expect(got.body.labelIds).toContain('STARRED')
  })

  test('changes nothing when an id is unknown, wherever it comes in the batch', async () => {
    const h = harness('demo')
    const ids = (await allRefs(h)).map((r) => r.id)
    const before = gmailTables(h)
    const json = { ids: [...ids.slice(0, 10), 'ffffffffffffffff', ...ids.slice(10, 20)], addLabelIds: ['STARRED'] }
    const res = await h.call('POST', `${U}/messages/batchModify`, { json })
    expect(res.status).toBe(404)
    expect(gmailTables(h)).toEqual(before)
  })
})

describe('gmail.users.messages.batchDelete', () => {
  test('writes the rows that deleteMessage per message writes, skipping unknown and repeated ids', async () => {
    const fast = harness('demo')
    const slow = harness('demo')
    const userId = await userIdOf(fast)
    const ids = (await allRefs(fast)).map((r) => r.id)
    const doomed = [...ids.slice(0, 15), 'ffffffffffffffff', ...ids.slice(10, 20)]
    expect((await fast.call('POST', `${U}/messages/batchDelete`, { json: { ids: doomed } })).status).toBe(204)
    slow.entry.world.tx((db) => doomed.forEach((id) => deleteMessage(db, userId, id)))
    expect(gmailTables(fast)).toEqual(gmailTables(slow))
    expect((await fast.call('GET', `${U}/messages/${ids[0]}`)).status).toBe(404)
  })
})

describe('gmail.users.threads.modify', () => {
  test('writes the rows that modifyLabels per message of the thread writes', async () => {
    const fast = harness('demo')
    const slow = harness('demo')
    const userId = await userIdOf(fast)
    const all = await allRefs(fast)
    const threadId = all.find((m) => all.filter((n) => n.threadId === m.threadId).length > 2)!.threadId
    const members = (await fast.call('GET', `${U}/threads/${threadId}?format=minimal`)).body.messages as Ref[]
    for (const [add, remove] of [
      [['STARRED'], ['INBOX']],
      [['TRASH'], []],
      [[], ['TRASH', 'STARRED']],
    ]) {
      const res = await fast.call('POST', `${U}/threads/${threadId}/modify`, {
        json: { addLabelIds: add, removeLabelIds: remove },
      })
      expect(res.status).toBe(200)
      slow.entry.world.tx((db) => members.forEach((r) => modifyLabels(db, userId, r.id, add!, remove!, r.threadId)))
      expect(gmailTables(fast)).toEqual(gmailTables(slow))
    }
  })
})
