import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { gmailSeed } from './fixtures.ts'

// Gmail's labels guide: SENT and DRAFT "can be manually applied: no"; Gmail answers 400 `Invalid label: SENT` to a
// modify that adds or removes one, and 400 `No label add or removes specified` to a modify that changes nothing.

const U = '/gmail/v1/users/me'

async function firstMessage(h: ReturnType<typeof harness>) {
  const listed = (await h.call('GET', `${U}/messages`)).body.messages as { id: string; threadId: string }[]
  return listed[0]!
}

const reasonOf = (res: { status: number; body: { error: { message: string; errors: { reason: string }[] } } }) => ({
  status: res.status,
  message: res.body.error.message,
  reason: res.body.error.errors[0]!.reason,
})

describe('gmail.users.messages.modify', () => {
  test('refuses a call that neither adds nor removes a label', async () => {
    const h = harness(gmailSeed)
    const { id } = await firstMessage(h)
    for (const json of [{}, { addLabelIds: [], removeLabelIds: [] }]) {
      const res = await h.call('POST', `${U}/messages/${id}/modify`, { json })
      expect(reasonOf(res)).toEqual({
        status: 400,
        message: 'No label add or removes specified',
        reason: 'invalidArgument',
      })
    }
  })

  test('refuses to add or remove SENT and DRAFT, and leaves the labels as they were', async () => {
    const h = harness(gmailSeed)
    const { id } = await firstMessage(h)
    const before = (await h.call('GET', `${U}/messages/${id}?format=minimal`)).body.labelIds
    for (const json of [
      { addLabelIds: ['SENT'] },
      { removeLabelIds: ['SENT'] },
      { addLabelIds: ['STARRED', 'DRAFT'] },
    ]) {
      const res = await h.call('POST', `${U}/messages/${id}/modify`, { json })
      const label = [...(json.addLabelIds ?? []), ...(json.removeLabelIds ?? [])].find((l) => l !== 'STARRED')
      expect(reasonOf(res)).toEqual({ status: 400, message: `Invalid label: ${label}`, reason: 'invalidArgument' })
    }
    expect((await h.call('GET', `${U}/messages/${id}?format=minimal`)).body.labelIds).toEqual(before)
    const ok = await h.call('POST', `${U}/messages/${id}/modify`, { json: { addLabelIds: ['STARRED'] } })
    expect(ok.status).toBe(200)
    expect(ok.body.labelIds).toContain('STARRED')
  })
})

describe('gmail.users.threads.modify', () => {
  test('refuses an empty change and the labels Gmail applies itself', async () => {
    const h = harness(gmailSeed)
    const { threadId } = await firstMessage(h)
    const empty = await h.call('POST', `${U}/threads/${threadId}/modify`, { json: { addLabelIds: [] } })
    expect(reasonOf(empty)).toMatchObject({ status: 400, message: 'No label add or removes specified' })
    const draft = await h.call('POST', `${U}/threads/${threadId}/modify`, { json: { addLabelIds: ['DRAFT'] } })
    expect(reasonOf(draft)).toMatchObject({ status: 400, message: 'Invalid label: DRAFT' })
  })
})

describe('gmail.users.messages.batchModify', () => {
  test('refuses SENT like messages.modify, changing no message', async () => {
    const h = harness(gmailSeed)
    const { id } = await firstMessage(h)
    const before = (await h.call('GET', `${U}/messages/${id}?format=minimal`)).body.labelIds
    const json = { ids: [id], addLabelIds: ['STARRED'], removeLabelIds: ['SENT'] }
    const res = await h.call('POST', `${U}/messages/batchModify`, { json })
    expect(reasonOf(res)).toMatchObject({ status: 400, message: 'Invalid label: SENT' })
    expect((await h.call('GET', `${U}/messages/${id}?format=minimal`)).body.labelIds).toEqual(before)
  })
})
