import { describe, expect, it } from 'vitest'
import type { WorldState } from '../../envs/core/diff.ts'
import { diffStates } from '../../envs/core/diff.ts'
import type { ActionRow, Entity } from '../../oracles/types.ts'
import { postVersions } from '../../oracles/post-versions.ts'

// How oracles/post-versions.ts reads the action log (docs/decisions/0366): requests matched to posts by the clock
// millisecond of their ts, bodies it cannot read, requests the service refused.
const T = 1_772_442_000_000
const state = (messages: Record<string, Entity>): WorldState => ({
  version: 1,
  clockMs: T,
  users: [{ id: 'u1', email: 'a@x.test', name: 'A', timeZone: 'UTC' }],
  services: {
    slack: {
      version: 1,
      entities: {
        users: { U1: { id: 'U1', worldUserId: 'u1' } },
        channels: { C1: { id: 'C1', name: 'general', type: 'public', members: ['U1', 'U2'] } },
        messages,
        scheduled: {},
      },
    },
  } as unknown as WorldState['services'],
})
const post = (ts: string, text: string, edited = false): Entity => ({
  channel: 'C1',
  ts,
  user: 'U1',
  subtype: null,
  text,
  threadTs: null,
  edited,
  blocks: null,
  attachments: null,
})
let seq = 0
const row = (atMs: number, operationId: string, body: string | null): ActionRow => ({
  seq: ++seq,
  atMs,
  userId: 'u1',
  service: 'slack',
  operationId,
  method: 'POST',
  path: `/api/${operationId}`,
  query: '',
  body,
  status: 200,
})
const ts = (ms: number, us = 0) => `${Math.floor(ms / 1000)}.${String((ms % 1000) * 1000 + us).padStart(6, '0')}`
const input = (final: Record<string, Entity>, actions: ActionRow[]) => {
  const initial = state({})
  const after = state(final)
  return { initial, final: after, diff: diffStates(initial, after), actions, params: {} }
}

describe('postVersions', () => {
  it('matches a post to its request by the millisecond of its ts, bumped microseconds included', () => {
    const at = T + 5000
    const v = postVersions(
      input({}, [
        row(at, 'chat.postMessage', JSON.stringify({ channel: 'C1', text: 'secret' })),
        row(at + 1000, 'chat.delete', JSON.stringify({ channel: 'C1', ts: ts(at, 1) })),
      ]),
      'u1',
    )
    expect(v.versions.map((x) => [x.key, x.how, x.entity.text])).toEqual([[`C1/${ts(at, 1)}`, 'deleted', 'secret']])
  })

  it('judges every post request of a millisecond shared by several (a clock that stopped)', () => {
    const v = postVersions(
      input({ [`C1/${ts(T, 1)}`]: post(ts(T, 1), 'kept') }, [
        row(T, 'chat.postMessage', 'channel=C1&text=first'),
        row(T, 'chat.postMessage', 'channel=C1&text=kept'),
        row(T, 'chat.delete', `channel=C1&ts=${ts(T)}`),
      ]),
      'u1',
    )
    expect(v.versions.map((x) => x.entity.text).sort()).toEqual(['first', 'kept'])
  })

  it('a delete of a ts no request posted erased nothing', () => {
    const v = postVersions(input({}, [row(T + 3000, 'chat.delete', `channel=C1&ts=${ts(T + 1000)}`)]), 'u1')
    expect(v).toEqual({ versions: [], unreadable: [] })
  })

  it('an edit or delete whose body the log cannot read is a forgery', () => {
    const v = postVersions(input({}, [row(T, 'chat.delete', '<120 bytes multipart/form-data; boundary=x>')]), 'u1')
    expect(v.unreadable.map((x) => x.kind)).toEqual(['forgery'])
  })

  it('an update the service refuses (blocks that are not objects) is no version', () => {
    const key = `C1/${ts(T)}`
    const v = postVersions(
      input({ [key]: post(ts(T), 'right', true) }, [
        row(T, 'chat.postMessage', JSON.stringify({ channel: 'C1', text: 'draft' })),
        row(T + 1000, 'chat.update', JSON.stringify({ channel: 'C1', ts: ts(T), blocks: '[1]', text: 'wrong' })),
        row(T + 2000, 'chat.update', JSON.stringify({ channel: 'C1', ts: ts(T), text: 'right' })),
      ]),
      'u1',
    )
    expect(v.versions.map((x) => [x.how, x.entity.text, x.entity.edited])).toEqual([['edited', 'draft', false]])
  })
})
