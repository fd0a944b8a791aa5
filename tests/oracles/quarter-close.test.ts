import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { quarterClose } from '../../tasks-lite/families/quarter-close.ts'
import { longHorizonBasics, oracleGym, http } from './support.ts'

const { judge } = oracleGym()

describe('quarter-close oracle', () => {
  const t = TaskSpec.parse(quarterClose.generate(1))

  longHorizonBasics(t, judge)

  it("fails and counts collateral when last quarter's report is edited too", async () => {
    const fix = t.reference.find((s) => String((s.args as { path: string }).path).endsWith(':batchUpdate'))!
    const old = String((t.oracle.params.wrongFiles as string[])[1]).replace(' close - final.csv', ' board report')
    const v = await judge(t, [
      ...t.reference,
      http('GET', '/drive/v3/files', { query: { q: `name = '${old}'` } }, { old: 'files.0.id' }),
      {
        ...fix,
        args: {
          ...fix.args,
          path: '/v1/documents/{{old}}:batchUpdate',
          body: { requests: [{ insertText: { endOfSegmentLocation: {}, text: '\nReviewed.' } }] },
        },
      },
    ])
    expect(v.passed).toBe(false)
    expect(v.reward).toBeLessThan(0)
  })

  it('fails when the reply also quotes the draft figures', async () => {
    const steps = t.reference.map((s) =>
      String((s.args as { path: string }).path).endsWith('/messages/send')
        ? JSON.parse(
            JSON.stringify(s).replace(
              'The report is updated',
              `Draft was ${(t.oracle.params.wrong as string[])[0]}; the report is updated`,
            ),
          )
        : s,
    )
    const v = await judge(t, steps)
    expect(v.passed).toBe(false)
    expect(v.details.checks.find((c) => c.name === 'no near-duplicate fact in the mail')!.ok).toBe(false)
  })
})
