import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { gmailSeed, rfc822 } from './fixtures.ts'

const U = '/gmail/v1/users/me'

describe('gmail.users.threads.list', () => {
  test('lists conversations with snippet and historyId', async () => {
    const h = harness(gmailSeed)
    const res = await h.call('GET', `${U}/threads`)
    expect(res.body.resultSizeEstimate).toBe(2)
    expect(Object.keys(res.body.threads[0])).toEqual(['id', 'snippet', 'historyId'])
  })
})

describe('gmail.users.threads.get', () => {
  test('returns every message of the thread in order', async () => {
    const h = harness(gmailSeed)
    const thread = (await h.call('GET', `${U}/threads?q=invoice`)).body.threads[0]
    const res = await h.call('GET', `${U}/threads/${thread.id}?format=minimal`)
    expect(res.body.messages.map((m: { snippet: string }) => m.snippet)).toEqual([
      'Hi Ann, could you confirm invoice 1042 was paid?',
      'Checking with finance.',
    ])
    expect((await h.call('GET', `${U}/threads/18c0000000000000`)).status).toBe(404)
  })
})

describe('gmail.users.threads.modify', () => {
  test('relabels every message of the thread', async () => {
    const h = harness(gmailSeed)
    const thread = (await h.call('GET', `${U}/threads?q=invoice`)).body.threads[0]
    const res = await h.call('POST', `${U}/threads/${thread.id}/modify`, { json: { addLabelIds: ['IMPORTANT'] } })
    expect(res.body.messages.every((m: { labelIds: string[] }) => m.labelIds.includes('IMPORTANT'))).toBe(true)
  })
})

describe('gmail.users.threads.trash', () => {
  test('trashes the whole thread; gmail.users.threads.untrash brings it back', async () => {
    const h = harness(gmailSeed)
    const thread = (await h.call('GET', `${U}/threads?q=invoice`)).body.threads[0]
    await h.call('POST', `${U}/threads/${thread.id}/trash`)
    expect((await h.call('GET', `${U}/threads?q=invoice`)).body.resultSizeEstimate).toBe(0)
    await h.call('POST', `${U}/threads/${thread.id}/untrash`)
    expect((await h.call('GET', `${U}/threads?q=invoice`)).body.resultSizeEstimate).toBe(1)
  })
})

describe('gmail.users.threads.delete', () => {
  test('deletes every message of the thread', async () => {
    const h = harness(gmailSeed)
    const thread = (await h.call('GET', `${U}/threads?q=invoice`)).body.threads[0]
    expect((await h.call('DELETE', `${U}/threads/${thread.id}`)).status).toBe(204)
    expect((await h.call('GET', `${U}/messages?q=invoice&includeSpamTrash=true`)).body.resultSizeEstimate).toBe(0)
  })
})

describe('gmail.users.labels.list', () => {
  test('lists system labels and user labels', async () => {
    const h = harness(gmailSeed)
    const res = await h.call('GET', `${U}/labels`)
    const names = res.body.labels.map((l: { name: string }) => l.name)
    expect(names).toEqual(
      expect.arrayContaining(['INBOX', 'SENT', 'TRASH', 'SPAM', 'UNREAD', 'STARRED', 'Clients/Acme']),
    )
    expect(res.body.labels.find((l: { id: string }) => l.id === 'TRASH')).toEqual({
      id: 'TRASH',
      name: 'TRASH',
      messageListVisibility: 'hide',
      labelListVisibility: 'labelHide',
      type: 'system',
    })
  })
})

describe('gmail.users.labels.get', () => {
  test('reports message and thread totals that agree with search', async () => {
    const h = harness(gmailSeed)
    const inbox = (await h.call('GET', `${U}/labels/INBOX`)).body
    expect(inbox).toMatchObject({ id: 'INBOX', messagesTotal: 2, messagesUnread: 1, threadsTotal: 2, threadsUnread: 1 })
    expect((await h.call('GET', `${U}/messages?labelIds=INBOX`)).body.resultSizeEstimate).toBe(inbox.messagesTotal)
    expect((await h.call('GET', `${U}/labels/Label_404`)).status).toBe(404)
  })
})

describe('gmail.users.labels.create', () => {
  test('creates a user label and refuses duplicates, system names and off-palette colours', async () => {
    const h = harness(gmailSeed)
    const res = await h.call('POST', `${U}/labels`, {
      json: { name: 'Receipts', color: { textColor: '#ffffff', backgroundColor: '#16a766' } },
    })
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^Label_\d+$/),
      name: 'Receipts',
      messageListVisibility: 'show',
      labelListVisibility: 'labelShow',
    })
    expect((await h.call('POST', `${U}/labels`, { json: { name: 'receipts' } })).status).toBe(409)
    expect((await h.call('POST', `${U}/labels`, { json: { name: 'INBOX' } })).status).toBe(400)
    expect(
      (
        await h.call('POST', `${U}/labels`, {
          json: { name: 'Odd', color: { textColor: '#123456', backgroundColor: '#000000' } },
        })
      ).status,
    ).toBe(400)
  })
})

describe('gmail.users.labels.patch', () => {
  test('renames a label, and gmail.users.labels.update replaces it; system labels are protected', async () => {
    const h = harness(gmailSeed)
    const id = (await h.call('GET', `${U}/labels`)).body.labels.find(
      (l: { name: string }) => l.name === 'Clients/Acme',
    ).id
    expect((await h.call('PATCH', `${U}/labels/${id}`, { json: { name: 'Clients/Acme Corp' } })).body.name).toBe(
      'Clients/Acme Corp',
    )
    expect((await h.call('GET', `${U}/messages?q=label:clients-acme-corp`)).body.resultSizeEstimate).toBe(1)
    const put = await h.call('PUT', `${U}/labels/${id}`, { json: { name: 'Acme' } })
    expect(put.body).toMatchObject({ id, name: 'Acme' })
    expect((await h.call('PATCH', `${U}/labels/INBOX`, { json: { name: 'x' } })).status).toBe(400)
  })
})

describe('gmail.users.labels.delete', () => {
  test('removes the label from its messages', async () => {
    const h = harness(gmailSeed)
    const id = (await h.call('GET', `${U}/labels`)).body.labels.find(
      (l: { name: string }) => l.name === 'Clients/Acme',
    ).id
    expect((await h.call('DELETE', `${U}/labels/${id}`)).status).toBe(204)
    const msg = (await h.call('GET', `${U}/messages?q=invoice`)).body.messages.at(-1)
    expect((await h.call('GET', `${U}/messages/${msg.id}?format=minimal`)).body.labelIds).not.toContain(id)
    expect((await h.call('DELETE', `${U}/labels/INBOX`)).status).toBe(400)
  })
})

describe('gmail.users.drafts.create', () => {
  test('creates a DRAFT message; gmail.users.drafts.get and gmail.users.drafts.list find it', async () => {
    const h = harness(gmailSeed)
    const draft = await h.call('POST', `${U}/drafts`, {
      json: { message: { raw: rfc822({ To: 'ben@example.com', Subject: 'Draft plan' }, 'wip') } },
    })
    expect(draft.body.id).toMatch(/^r\d+$/)
    expect(draft.body.message.labelIds).toEqual(['DRAFT'])
    expect((await h.call('GET', `${U}/drafts/${draft.body.id}`)).body.message.snippet).toBe('wip')
    expect((await h.call('GET', `${U}/drafts`)).body.drafts).toEqual([
      { id: draft.body.id, message: { id: draft.body.message.id, threadId: draft.body.message.threadId } },
    ])
  })
})

describe('gmail.users.drafts.update', () => {
  test('replaces the draft message; gmail.users.drafts.delete removes it', async () => {
    const h = harness(gmailSeed)
    const draft = (
      await h.call('POST', `${U}/drafts`, {
        json: { message: { raw: rfc822({ To: 'ben@example.com', Subject: 'v1' }, 'one') } },
      })
    ).body
    const updated = await h.call('PUT', `${U}/drafts/${draft.id}`, {
      json: { message: { raw: rfc822({ To: 'ben@example.com', Subject: 'v2' }, 'two') } },
    })
    expect(updated.body.id).toBe(draft.id)
    expect((await h.call('GET', `${U}/drafts/${draft.id}?format=minimal`)).body.message.snippet).toBe('two')
    expect((await h.call('DELETE', `${U}/drafts/${draft.id}`)).status).toBe(204)
    expect((await h.call('GET', `${U}/drafts/${draft.id}`)).status).toBe(404)
  })
})

describe('gmail.users.drafts.send', () => {
  test('sends the draft and removes it', async () => {
    const h = harness(gmailSeed)
    const draft = (
      await h.call('POST', `${U}/drafts`, {
        json: { message: { raw: rfc822({ To: 'ben@example.com', Subject: 'Ready' }, 'go') } },
      })
    ).body
    const sent = await h.call('POST', `${U}/drafts/send`, { json: { id: draft.id } })
    expect(sent.body.labelIds).toEqual(['SENT'])
    expect((await h.call('GET', `${U}/drafts`)).body).toEqual({ resultSizeEstimate: 0 })
    expect(
      (await h.call('GET', `${U}/messages?q=subject:ready`, { token: h.google('ben') })).body.resultSizeEstimate,
    ).toBe(1)
  })
})

describe('gmail.users.history.list', () => {
  test('reports additions and label changes since a history id, and 404 for a too-old id', async () => {
    const h = harness(gmailSeed)
    const start = (await h.call('GET', `${U}/profile`)).body.historyId
    const id = (await h.call('GET', `${U}/messages?q=lunch`)).body.messages[0].id
    await h.call('POST', `${U}/messages/${id}/modify`, { json: { addLabelIds: ['STARRED'] } })
    await h.call('POST', `${U}/messages/send`, { json: { raw: rfc822({ To: 'x@y.test', Subject: 's' }, 'b') } })
    const res = (await h.call('GET', `${U}/history?startHistoryId=${start}`)).body
    expect(
      res.history.map((r: Record<string, unknown>) => Object.keys(r).filter((k) => k !== 'id' && k !== 'messages')),
    ).toEqual([['labelsAdded'], ['messagesAdded']])
    expect(Number(res.historyId)).toBeGreaterThan(Number(start))
    const only = (await h.call('GET', `${U}/history?startHistoryId=${start}&historyTypes=labelAdded`)).body
    expect(only.history).toHaveLength(1)
    expect((await h.call('GET', `${U}/history?startHistoryId=5`)).status).toBe(404)
    expect((await h.call('GET', `${U}/history`)).status).toBe(400)
  })

  test('lists a message once per record when one change adds and removes labels', async () => {
    const h = harness(gmailSeed)
    const start = (await h.call('GET', `${U}/profile`)).body.historyId
    const msg = (await h.call('GET', `${U}/messages?q=lunch`)).body.messages[0]
    await h.call('POST', `${U}/messages/${msg.id}/trash`)
    const res = (await h.call('GET', `${U}/history?startHistoryId=${start}`)).body
    expect(res.history).toHaveLength(1)
    expect(res.history[0].messages).toEqual([{ id: msg.id, threadId: msg.threadId }])
    expect(res.history[0].labelsAdded[0].labelIds).toEqual(['TRASH'])
    expect(res.history[0].labelsRemoved[0].labelIds).toEqual(['INBOX'])
  })
})

describe('gmail.users.getProfile', () => {
  test('counts messages and threads of the mailbox', async () => {
    const h = harness(gmailSeed)
    expect((await h.call('GET', `${U}/profile`)).body).toMatchObject({
      emailAddress: 'ann@example.com',
      messagesTotal: 4,
      threadsTotal: 3,
    })
  })
})

describe('gmail.users.watch', () => {
  test('records a watch with a history id and expiration; gmail.users.stop clears it', async () => {
    const h = harness(gmailSeed)
    const res = await h.call('POST', `${U}/watch`, { json: { topicName: 'projects/p/topics/t', labelIds: ['INBOX'] } })
    expect(res.body.expiration).toBe(String(Date.parse('2026-03-10T15:00:01Z') + 7 * 86_400_000))
    expect((await h.call('POST', `${U}/watch`, { json: { topicName: 'nope' } })).status).toBe(400)
    expect((await h.call('POST', `${U}/stop`)).status).toBe(204)
  })
})
