import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { specMethods } from '../../envs/gmail/api/methods.gen.ts'
import { operationIdOf } from '../../server/app.ts'
import { validateAgainst } from '../support/discovery.ts'
import { gmailSeed, rfc822 } from './fixtures.ts'

// Every 2xx JSON answer of a broad Gmail workflow validates against the discovery schema of its method.

describe('gmail responses match the discovery schemas', () => {
  test('a workflow touching every resource', async () => {
    const h = harness(gmailSeed)
    const checked: string[] = []
    const problems: string[] = []
    const call = async (method: string, path: string, json?: unknown) => {
      const res = await h.call(method, path, json === undefined ? {} : { json })
      if (res.status >= 200 && res.status < 300 && res.body !== undefined) {
        const op = operationIdOf(method, path.split('?')[0]!)!.operationId
        const response = specMethods().find((m) => m.id === op)?.response
        if (response) {
          checked.push(op)
          problems.push(...validateAgainst('gmail', response, res.body).map((p) => `${op}: ${p}`))
        }
      }
      return res.body
    }
    const U = '/gmail/v1/users/me'
    await call('GET', `${U}/profile`)
    const list = await call('GET', `${U}/messages?q=invoice`)
    for (const f of ['full', 'metadata', 'minimal', 'raw'])
      await call('GET', `${U}/messages/${list.messages[0].id}?format=${f}`)
    const withAtt = (await call('GET', `${U}/messages?q=has:attachment`)).messages[0].id
    const full = await call('GET', `${U}/messages/${withAtt}`)
    await call('GET', `${U}/messages/${withAtt}/attachments/${full.payload.parts[1].body.attachmentId}`)
    const sent = await call('POST', `${U}/messages/send`, { raw: rfc822({ To: 'ben@example.com', Subject: 's' }, 'b') })
    await call('POST', `${U}/messages/${sent.id}/modify`, { addLabelIds: ['STARRED'] })
    await call('POST', `${U}/messages/${sent.id}/trash`)
    await call('POST', `${U}/messages/${sent.id}/untrash`)
    await call('POST', `${U}/messages`, { raw: rfc822({ Subject: 'i' }, 'b'), labelIds: ['INBOX'] })
    await call('POST', `${U}/messages/import`, { raw: rfc822({ Subject: 'i' }, 'b') })
    const threads = await call('GET', `${U}/threads`)
    await call('GET', `${U}/threads/${threads.threads[0].id}`)
    await call('POST', `${U}/threads/${threads.threads[0].id}/modify`, { addLabelIds: ['IMPORTANT'] })
    await call('GET', `${U}/labels`)
    await call('GET', `${U}/labels/INBOX`)
    const label = await call('POST', `${U}/labels`, {
      name: 'Schema',
      color: { textColor: '#000000', backgroundColor: '#ffffff' },
    })
    await call('PATCH', `${U}/labels/${label.id}`, { name: 'Schema 2' })
    const draft = await call('POST', `${U}/drafts`, {
      message: { raw: rfc822({ To: 'ben@example.com', Subject: 'd' }, 'b') },
    })
    await call('GET', `${U}/drafts`)
    await call('GET', `${U}/drafts/${draft.id}`)
    await call('POST', `${U}/drafts/send`, { id: draft.id })
    await call('GET', `${U}/history?startHistoryId=1000`)
    for (const s of [
      'vacation',
      'imap',
      'pop',
      'language',
      'autoForwarding',
      'filters',
      'forwardingAddresses',
      'sendAs',
      'delegates',
    ])
      await call('GET', `${U}/settings/${s}`)
    await call('POST', `${U}/settings/filters`, {
      criteria: { from: 'x@y.test' },
      action: { addLabelIds: ['STARRED'] },
    })
    await call('POST', `${U}/watch`, { topicName: 'projects/p/topics/t' })
    expect(problems).toEqual([])
    expect(new Set(checked).size).toBeGreaterThan(25)
  })
})
