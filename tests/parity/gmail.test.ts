import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { compareShapes, recorded } from './shape.ts'
import { gmailSeed, rfc822 } from '../gmail/fixtures.ts'

// Our responses against responses recorded from the real Gmail API, compared by shape (keys and
// types), not values. Keys that depend on the message (e.g. nested parts) are compared where both have them.

async function setup() {
  const h = harness(gmailSeed)
  const id = (await h.call('GET', '/gmail/v1/users/me/messages?q=has:attachment')).body.messages[0].id
  return { h, id }
}

describe('gmail parity with recorded responses', () => {
  test('messages.list', async () => {
    const { h } = await setup()
    const ours = (await h.call('GET', '/gmail/v1/users/me/messages?maxResults=1')).body
    expect(compareShapes(ours, recorded('gmail', 'messages_list'))).toEqual({ missing: [], extra: [] })
  })

  test.each(['minimal', 'metadata', 'raw'])('messages.get format=%s', async (format) => {
    const { h, id } = await setup()
    const ours = (await h.call('GET', `/gmail/v1/users/me/messages/${id}?format=${format}`)).body
    expect(compareShapes(ours, recorded('gmail', `message_get_${format}`))).toEqual({ missing: [], extra: [] })
  })

  test('messages.get format=full (top level and part keys)', async () => {
    const { h, id } = await setup()
    const ours = (await h.call('GET', `/gmail/v1/users/me/messages/${id}`)).body
    const real = recorded('gmail', 'message_get_full') as Record<string, unknown>
    expect(Object.keys(ours).sort()).toEqual(Object.keys(real).sort())
    type Part = Record<string, unknown> & { parts?: Part[] }
    const leaves = (p: Part): Part[] => (p.parts ? p.parts.flatMap(leaves) : [p])
    const realLeaf = leaves(real.payload as Part)[0]!
    expect(Object.keys(ours.payload.parts[0]).sort()).toEqual(Object.keys(realLeaf).sort())
    expect(Object.keys(ours.payload).sort()).toEqual(Object.keys(real.payload as Part).sort())
  })

  test('messages.send, modify, trash and untrash answers', async () => {
    const { h } = await setup()
    const sent = (
      await h.call('POST', '/gmail/v1/users/me/messages/send', {
        json: { raw: rfc822({ To: 'ann@example.com', Subject: 'p' }, 'b') },
      })
    ).body
    expect(compareShapes(sent, recorded('gmail', 'message_send_response'))).toEqual({ missing: [], extra: [] })
    const mod = (
      await h.call('POST', `/gmail/v1/users/me/messages/${sent.id}/modify`, { json: { addLabelIds: ['STARRED'] } })
    ).body
    expect(compareShapes(mod, recorded('gmail', 'message_modify_response'))).toEqual({ missing: [], extra: [] })
    expect(
      compareShapes(
        (await h.call('POST', `/gmail/v1/users/me/messages/${sent.id}/trash`)).body,
        recorded('gmail', 'message_trash_response'),
      ),
    ).toEqual({ missing: [], extra: [] })
    expect(
      compareShapes(
        (await h.call('POST', `/gmail/v1/users/me/messages/${sent.id}/untrash`)).body,
        recorded('gmail', 'message_untrash_response'),
      ),
    ).toEqual({ missing: [], extra: [] })
  })

  test('labels.list, labels.get and labels.create', async () => {
    const { h } = await setup()
    expect(
      compareShapes((await h.call('GET', '/gmail/v1/users/me/labels')).body, recorded('gmail', 'labels_list'), [
        'labels[].color',
      ]),
    ).toEqual({ missing: [], extra: [] })
    expect(
      compareShapes(
        (await h.call('GET', '/gmail/v1/users/me/labels/INBOX')).body,
        recorded('gmail', 'label_get_inbox'),
      ),
    ).toEqual({ missing: [], extra: [] })
    expect(
      compareShapes(
        (await h.call('POST', '/gmail/v1/users/me/labels', { json: { name: 'Parity' } })).body,
        recorded('gmail', 'label_create_response'),
      ),
    ).toEqual({ missing: [], extra: [] })
  })

  test('threads.list and threads.get format=metadata', async () => {
    const { h } = await setup()
    const list = (await h.call('GET', '/gmail/v1/users/me/threads?maxResults=1')).body
    expect(compareShapes(list, recorded('gmail', 'threads_list'))).toEqual({ missing: [], extra: [] })
    const thread = (await h.call('GET', `/gmail/v1/users/me/threads/${list.threads[0].id}?format=metadata`)).body
    expect(compareShapes(thread, recorded('gmail', 'thread_get_metadata'))).toEqual({ missing: [], extra: [] })
  })

  test('drafts.create, drafts.get, profile and history', async () => {
    const { h } = await setup()
    const start = (await h.call('GET', '/gmail/v1/users/me/profile')).body
    expect(compareShapes(start, recorded('gmail', 'profile'))).toEqual({ missing: [], extra: [] })
    const draft = (
      await h.call('POST', '/gmail/v1/users/me/drafts', {
        json: { message: { raw: rfc822({ To: 'x@y.test', Subject: 'd' }, 'b') } },
      })
    ).body
    expect(compareShapes(draft, recorded('gmail', 'draft_create_response'))).toEqual({ missing: [], extra: [] })
    expect(
      compareShapes(
        (await h.call('GET', `/gmail/v1/users/me/drafts/${draft.id}`)).body,
        recorded('gmail', 'draft_get_response'),
      ),
    ).toEqual({ missing: [], extra: [] })
    await h.call('DELETE', `/gmail/v1/users/me/drafts/${draft.id}`)
    const history = (await h.call('GET', `/gmail/v1/users/me/history?startHistoryId=${start.historyId}`)).body
    const { missing } = compareShapes(history, recorded('gmail', 'history_list'))
    expect(missing).toEqual([])
  })

  test('settings documents', async () => {
    const { h } = await setup()
    for (const [path, file] of [
      ['vacation', 'settings_vacation'],
      ['imap', 'settings_imap'],
      ['pop', 'settings_pop'],
      ['language', 'settings_language'],
      ['autoForwarding', 'settings_autoforwarding'],
      ['sendAs', 'settings_sendas_list'],
    ] as const) {
      const { missing } = compareShapes(
        (await h.call('GET', `/gmail/v1/users/me/settings/${path}`)).body,
        recorded('gmail', file),
      )
      expect(missing, path).toEqual([])
    }
  })

  test('error bodies', async () => {
    const { h } = await setup()
    const bad = (await h.call('GET', '/gmail/v1/users/me/messages/not-hex')).body
    expect(bad).toEqual(recorded('gmail', 'error_message_not_found'))
    const send = (await h.call('POST', '/gmail/v1/users/me/messages/send', { json: {} })).body
    expect(send).toEqual(recorded('gmail', 'error_invalid_message_send'))
  })
})
