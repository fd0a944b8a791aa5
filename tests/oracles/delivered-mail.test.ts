import { describe, expect, it } from 'vitest'
import { deliveredMail } from '../../oracles/artifacts.ts'
import { noteChangedIds, type WorldState } from '../../envs/core/diff.ts'
import type { Json } from '../../envs/core/service.ts'
import type { ActionRow } from '../../oracles/types.ts'

const at = (ms: number) => new Date(ms).toISOString()
const message = (userId: string, id: string, labelIds: string[], ms = 0) =>
  ({ userId, id, labelIds, internalDate: at(ms) }) as Json
const state = (messages: Record<string, Json>): WorldState => ({
  version: 1,
  clockMs: 0,
  users: [],
  services: { gmail: { version: 1, entities: { messages } } },
})
const send = (userId: string, atMs: number): ActionRow => ({
  seq: 1,
  atMs,
  userId,
  service: 'gmail',
  operationId: 'gmail.users.messages.send',
  method: 'POST',
  path: '/gmail/v1/users/me/messages/send',
  query: '',
  body: null,
  status: 200,
})

// The SENT messages new in a final state are listed once per pair of collections and user (docs/decisions/0342):
// the same final collection judged against another initial one, or for another user, is listed again.
describe('deliveredMail', () => {
  it('judges one final collection against each initial collection and user on its own', () => {
    const final = {
      'ann/1': message('ann', '1', ['SENT'], 5),
      'ann/2': message('ann', '2', ['SENT'], 9),
      'bob/3': message('bob', '3', ['SENT'], 7),
    }
    const none = state({})
    const annSent = state({ 'ann/1': message('ann', '1', ['SENT'], 5) })
    const after = state(final)
    const judge = (before: WorldState, user: string, actions: ActionRow[]) => {
      const d = deliveredMail(before, after, actions, user)
      return { sent: d.sent.map((m) => (m as { id: string }).id), forged: d.forged.map((v) => v.message) }
    }
    for (let round = 0; round < 2; round++) {
      expect(judge(none, 'ann', [send('ann', 9)])).toEqual({
        sent: ['2'],
        forged: ['message 1 is labelled SENT but was never sent (inserted or relabelled)'],
      })
      expect(judge(annSent, 'ann', [send('ann', 9)])).toEqual({ sent: ['2'], forged: [] })
      expect(judge(annSent, 'bob', [])).toEqual({
        sent: [],
        forged: ['message 3 is labelled SENT but was never sent (inserted or relabelled)'],
      })
      expect(judge(after, 'ann', [])).toEqual({ sent: [], forged: [] })
      expect(judge(none, 'bob', [send('bob', 7)])).toEqual({ sent: ['3'], forged: [] })
    }
  })

  // A final collection noted as differing from the initial one in a few ids only (envs/core/diff.ts
  // noteChangedIds) is judged on those ids; two or more new SENT messages are listed in collection order.
  it('looks only at the noted ids, in collection order', () => {
    const kept = message('ann', '0', ['SENT'], 1)
    const initial = { 'ann/0': kept }
    const one = { 'ann/0': kept, 'ann/1': message('ann', '1', ['SENT'], 5), 'ann/2': message('ann', '2', ['SENT'], 9) }
    // Breaks the notes' promise on purpose (ann/1 is new but not noted): only the noted ann/2 is looked at.
    noteChangedIds(one, initial, ['ann/2'])
    expect(deliveredMail(state(initial), state(one), [send('ann', 9)], 'ann').forged).toEqual([])
    const two = { 'ann/0': kept, 'ann/1': message('ann', '1', ['SENT'], 5), 'ann/2': message('ann', '2', ['SENT'], 9) }
    noteChangedIds(two, initial, ['ann/2', 'ann/1'])
    expect(deliveredMail(state(initial), state(two), [], 'ann').forged.map((v) => v.message.split(' ')[1])).toEqual([
      '1',
      '2',
    ])
  })
})
