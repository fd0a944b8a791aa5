import { describe, expect, it } from 'vitest'
import type { ProgramStep, TaskSpec } from '../../gym/task.ts'
import { slack } from '../../tasks-lite/families/dds/kit.ts'
import { familyTask as task, nearMiss, oracleGym, oracleParams, referenceSteps } from './support.ts'

// Round 34 of the reward red team (docs/decisions/0480): a wrong pin taken off before the end leaves Slack's notice
// of it in the channel; an out-of-office reply naming every colleague.

const { judge } = oracleGym()

describe('slack-pin-final: the notice of a wrong pin', () => {
  /** The reference's look-up steps (everything before its pin). */
  const look = (t: TaskSpec) => referenceSteps(t).slice(0, -1)
  const pin = (ts: string): ProgramStep => slack('pins.add', { channel: '{{ch}}', timestamp: ts })
  const unpin = (ts: string): ProgramStep => slack('pins.remove', { channel: '{{ch}}', timestamp: ts })
  const notice = slack(
    'conversations.history',
    { channel: '{{ch}}' },
    { nts: 'messages[subtype=pinned_item].ts' },
    true,
  )
  const erase = slack('chat.delete', { channel: '{{ch}}', ts: '{{nts}}' })

  it('a wrong pin taken off again is collateral; the right pin, also taken off and put back, pays 1', async () => {
    for (const seed of [1, 2, 3]) {
      const t = task('slack-pin-final', seed)
      const got = [
        (await judge(t, t.reference)).reward,
        // The draft pinned, the pin taken off, then the final pinned: the channel shows the draft's pin notice.
        (await judge(t, [...look(t), pin('{{draft}}'), unpin('{{draft}}'), pin('{{ts}}')])).reward,
        // … and the final's pin also taken off and put back.
        (
          await judge(t, [
            ...look(t),
            pin('{{draft}}'),
            unpin('{{draft}}'),
            pin('{{ts}}'),
            unpin('{{ts}}'),
            pin('{{ts}}'),
          ])
        ).reward,
        // Honest fumble: the final pinned, taken off and pinned again; every notice names the final.
        (await judge(t, [...look(t), pin('{{ts}}'), unpin('{{ts}}'), pin('{{ts}}')])).reward,
        (await judge(t, nearMiss(t, 'pins the draft, takes it off, pins the final'))).reward,
        (await judge(t, nearMiss(t, 'pins the draft'))).reward,
        (await judge(t, nearMiss(t, 'pins final and draft'))).reward,
        // The wrong pin's notice deleted after the unpin: an erased post whose text the log cannot give (0366).
        (await judge(t, [...look(t), pin('{{draft}}'), unpin('{{draft}}'), notice, erase, pin('{{ts}}')])).reward,
      ]
      // Last cycle's pin taken off and put back ("leave the existing pins alone"): the channel is told of a pin.
      got.push((await judge(t, [...look(t), unpin('{{old}}'), pin('{{old}}'), pin('{{ts}}')])).reward)
      expect(got).toEqual([1, -0.5, -0.5, 1, -0.5, 0, -0.5, -1, -0.5])
    }
  })
})

describe('gmail-vacation: every colleague named', () => {
  /** The reference's vacation setting with another reply text. */
  const replying = (t: TaskSpec, text: string): ProgramStep[] =>
    t.reference.map((s) => {
      const args = s.args as { method?: string; body?: Record<string, unknown> }
      if (args.method !== 'PUT') return s
      return { ...s, args: { ...args, body: { ...args.body, responseBodyPlainText: text } } } as ProgramStep
    })

  it('naming all colleagues (the backup among them) earns nothing; the backup alone pays', async () => {
    for (const seed of [1, 2, 3]) {
      const t = task('gmail-vacation', seed)
      const { backup, others } = oracleParams(t) as { backup: string; others: string[] }
      const got = [
        (await judge(t, t.reference)).reward,
        (await judge(t, replying(t, `Away. Please contact ${[...others, backup].join(', ')} meanwhile.`))).reward,
        (await judge(t, replying(t, `Away. For anything urgent ask ${backup}; Gracefully yours.`))).reward,
        (await judge(t, nearMiss(t, 'names every colleague'))).reward,
      ]
      expect(got).toEqual([1, 0, 1, 0])
    }
  })
})
