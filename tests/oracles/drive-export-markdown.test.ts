import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { driveExportMarkdown } from '../../tasks-lite/families/docs/drive-export-markdown.ts'
import { markdownless } from '../../oracles/families/drive/export-markdown.ts'
import { nearMiss as miss, oracleGym } from './support.ts'

const { judge } = oracleGym()

// Drive exports: only the current runbook's Markdown export, saved once in the import folder, is paid.
describe('drive-export-markdown', () => {
  it.each([1, 2])('seed %i: the reference is paid, no-op and near misses are not', async (seed) => {
    const task = TaskSpec.parse(driveExportMarkdown.generate(seed))
    const ref = await judge(task, task.reference)
    expect(ref.details.checks.filter((c) => !c.ok)).toEqual([])
    expect(ref.reward).toBe(1)
    expect((await judge(task, [])).reward).toBe(0)
    for (const n of task.nearMisses) expect((await judge(task, miss(task, n.name))).reward, n.name).toBeLessThan(1)
  })

  it('compares text without Markdown markup, escapes or list markers', () => {
    expect(
      markdownless('# Title\n\n1. Roll back\n2. Fail over\n\n* Thank \\*all\\*\n| a | b |\n| :--- | :--- |\n'),
    ).toBe('Title Roll back Fail over Thank all a b')
    expect(markdownless('Title\nRoll back')).not.toBe(markdownless('Title\nRoll forward'))
  })
})
