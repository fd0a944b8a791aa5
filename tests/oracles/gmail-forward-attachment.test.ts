import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { gmailForwardAttachment } from '../../tasks-lite/families/gmail/gmail-forward-attachment.ts'
import { pick } from '../../gym/program-grammar.ts'
import { nearMiss as miss, oracleGym } from './support.ts'

const { judge } = oracleGym()

describe('save filters', () => {
  it('decode base64url data as UTF-8 (attachments.get)', () => {
    const data = Buffer.from('item,amount\nHosting,10.00 ~?\n').toString('base64url')
    expect(pick({ data }, 'data|base64')).toBe('item,amount\nHosting,10.00 ~?\n')
    expect(pick({ data: 7 }, 'data|base64')).toBeUndefined()
  })
})

// Forwarding with the attachment: the file's bytes must travel (sha256), to the colleague only, the right month's.
describe('gmail-forward-attachment', () => {
  it.each([1, 2])(
    'seed %i: the forward with the original file is paid; retyping, extra files, wrong month are not',
    async (seed) => {
      const task = TaskSpec.parse(gmailForwardAttachment.generate(seed))
      const ref = await judge(task, task.reference)
      expect(ref.details.checks.filter((c) => !c.ok)).toEqual([])
      expect(ref.reward).toBe(1)
      expect((await judge(task, [])).reward).toBeLessThan(1)
      const noFile = await judge(task, miss(task, 'retypes the note without the attachment'))
      expect(noFile.details.checks.find((c) => c.name === 'it carries the original attachment')?.ok).toBe(false)
      const both = await judge(task, miss(task, 'attaches both invoices'))
      expect(both.details.checks.find((c) => c.name === 'and no other attachment')?.ok).toBe(false)
      expect((await judge(task, miss(task, "forwards the previous month's invoice"))).reward).toBeLessThan(1)
      expect((await judge(task, miss(task, 'replies to the vendor instead'))).reward).toBeLessThanOrEqual(0)
    },
  )
})
