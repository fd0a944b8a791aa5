import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { validateAgainst } from '../support/discovery.ts'
import { driveSeed, q } from './fixtures.ts'

const F = '/drive/v3/files'
type H = ReturnType<typeof harness>
const planId = async (h: H) =>
  (await h.call('GET', `${F}?q=${q("name = 'Atlas plan.txt'")}`)).body.files[0].id as string
const A = (id: string) => `${F}/${id}/approvals`

describe('drive.approvals.start', () => {
  test('starts one approval at a time for writers; drive.approvals.get and drive.approvals.list read it', async () => {
    const h = harness(driveSeed)
    const id = await planId(h)
    const res = await h.call('POST', `${A(id)}:start`, {
      json: {
        reviewerEmails: ['ben@example.com', 'cy@example.com'],
        dueTime: '2026-03-20T00:00:00Z',
        message: 'please review',
      },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      kind: 'drive#approval',
      targetFileId: id,
      status: 'IN_PROGRESS',
      initiator: { emailAddress: 'ann@example.com' },
      dueTime: '2026-03-20T00:00:00.000Z',
    })
    expect(
      res.body.reviewerResponses.map((r: { reviewer: { emailAddress: string }; response: string }) => [
        r.reviewer.emailAddress,
        r.response,
      ]),
    ).toEqual([
      ['ben@example.com', 'NO_RESPONSE'],
      ['cy@example.com', 'NO_RESPONSE'],
    ])
    expect(validateAgainst('drive', 'Approval', res.body)).toEqual([])
    expect((await h.call('POST', `${A(id)}:start`, { json: { reviewerEmails: ['ben@example.com'] } })).status).toBe(400)
    expect((await h.call('POST', `${A(id)}:start`, { json: { reviewerEmails: [] } })).status).toBe(400)
    expect((await h.call('GET', `${A(id)}/${res.body.approvalId}`, { token: h.google('ben') })).body.status).toBe(
      'IN_PROGRESS',
    )
    const list = (await h.call('GET', A(id))).body
    expect(list.kind).toBe('drive#approvalList')
    expect(list.items).toHaveLength(1)
    expect((await h.call('GET', `${A(id)}/nope`)).status).toBe(404)
    expect((await h.call('GET', A(id), { token: h.google('cy') })).status).toBe(404)
  })
})

describe('drive.approvals.approve', () => {
  test('completes when every reviewer approves; drive.approvals.decline ends it at once', async () => {
    const h = harness(driveSeed)
    const id = await planId(h)
    const a = (
      await h.call('POST', `${A(id)}:start`, { json: { reviewerEmails: ['ben@example.com', 'cy@example.com'] } })
    ).body.approvalId
    expect((await h.call('POST', `${A(id)}/${a}:approve`, { json: {} })).status).toBe(403)
    expect((await h.call('POST', `${A(id)}/${a}:approve`, { json: {}, token: h.google('ben') })).body.status).toBe(
      'IN_PROGRESS',
    )
    const done = (await h.call('POST', `${A(id)}/${a}:approve`, { json: {}, token: h.google('ben') })).body
    expect(done.status).toBe('IN_PROGRESS')
    const b = await h.call('POST', `${A(id)}:start`, { json: { reviewerEmails: ['ben@example.com'] } })
    expect(b.status).toBe(400)
    // Until Cy answers the approval stays open; Ben may still change his answer, and a decline ends it.
    const c2 = await h.call('POST', `${A(id)}/${a}:decline`, { json: { message: 'no' }, token: h.google('ben') })
    expect(c2.body.status).toBe('DECLINED')
    expect(c2.body.completeTime).toBeDefined()
    expect((await h.call('POST', `${A(id)}/${a}:approve`, { json: {}, token: h.google('ben') })).status).toBe(400)
    const next = (await h.call('POST', `${A(id)}:start`, { json: { reviewerEmails: ['ben@example.com'] } })).body
      .approvalId
    expect((await h.call('POST', `${A(id)}/${next}:approve`, { json: {}, token: h.google('ben') })).body.status).toBe(
      'APPROVED',
    )
  })
})

describe('drive.approvals.cancel', () => {
  test('lets only the initiator cancel; drive.approvals.comment and drive.approvals.reassign need a participant', async () => {
    const h = harness(driveSeed)
    const id = await planId(h)
    const a = (await h.call('POST', `${A(id)}:start`, { json: { reviewerEmails: ['ben@example.com'] } })).body
      .approvalId
    expect(
      (await h.call('POST', `${A(id)}/${a}:comment`, { json: { message: 'looking' }, token: h.google('ben') })).status,
    ).toBe(200)
    expect((await h.call('POST', `${A(id)}/${a}:comment`, { json: {} })).status).toBe(400)
    const re = await h.call('POST', `${A(id)}/${a}:reassign`, {
      json: {
        replaceReviewers: [{ removedReviewerEmail: 'ben@example.com', addedReviewerEmail: 'cy@example.com' }],
        addReviewers: [{ addedReviewerEmail: 'dee@example.com' }],
      },
    })
    expect(
      re.body.reviewerResponses.map((r: { reviewer: { emailAddress: string } }) => r.reviewer.emailAddress),
    ).toEqual(['cy@example.com', 'dee@example.com'])
    expect((await h.call('POST', `${A(id)}/${a}:cancel`, { json: {}, token: h.google('ben') })).status).toBe(403)
    expect((await h.call('POST', `${A(id)}/${a}:cancel`, { json: {} })).body.status).toBe('CANCELLED')
  })
})
