import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { gmailSeed } from './fixtures.ts'

const U = '/gmail/v1/users/me'

describe('gmail.users.messages.batchModify', () => {
  test('records each message with its own thread in the history', async () => {
    const h = harness(gmailSeed)
    const listed = (await h.call('GET', `${U}/messages`)).body.messages as { id: string; threadId: string }[]
    expect(new Set(listed.map((m) => m.threadId)).size).toBeGreaterThan(1)
    const start = (await h.call('GET', `${U}/profile`)).body.historyId
    const ids = listed.map((m) => m.id)
    const json = { ids, addLabelIds: ['STARRED'], removeLabelIds: ['INBOX'] }
    expect((await h.call('POST', `${U}/messages/batchModify`, { json })).status).toBe(204)
    type Change = { message: { id: string; threadId: string } }
    const history = (await h.call('GET', `${U}/history?startHistoryId=${start}`)).body.history as {
      labelsAdded?: Change[]
      labelsRemoved?: Change[]
    }[]
    const threadOf = new Map(listed.map((m) => [m.id, m.threadId]))
    const added = history.flatMap((r) => r.labelsAdded ?? []).map((a) => a.message)
    const removed = history.flatMap((r) => r.labelsRemoved ?? []).map((a) => a.message)
    expect(added.map((m) => m.id).sort()).toEqual([...ids].sort())
    for (const m of [...added, ...removed]) expect(m.threadId, m.id).toBe(threadOf.get(m.id))
  })
})

describe('gmail.users.threads.modify', () => {
  test('records each message of the thread with the thread in the history', async () => {
    const h = harness(gmailSeed)
    const listed = (await h.call('GET', `${U}/messages`)).body.messages as { id: string; threadId: string }[]
    const threadId = listed.find((m) => listed.filter((n) => n.threadId === m.threadId).length > 1)!.threadId
    const start = (await h.call('GET', `${U}/profile`)).body.historyId
    const modified = await h.call('POST', `${U}/threads/${threadId}/modify`, { json: { addLabelIds: ['STARRED'] } })
    expect(modified.status).toBe(200)
    const path = `${U}/history?startHistoryId=${start}&historyTypes=labelAdded`
    const history = (await h.call('GET', path)).body.history as {
      labelsAdded: { message: { id: string; threadId: string } }[]
    }[]
    const added = history.flatMap((r) => r.labelsAdded).map((a) => a.message)
    expect(added.map((m) => m.id).sort()).toEqual(
      listed
        .filter((m) => m.threadId === threadId)
        .map((m) => m.id)
        .sort(),
    )
    for (const m of added) expect(m.threadId).toBe(threadId)
  })
})
