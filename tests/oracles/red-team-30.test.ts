import { describe, expect, it } from 'vitest'
import type { ProgramStep } from '../../gym/task.ts'
import { familyTask as task, http, oracleGym, thenDone } from './support.ts'

// Round 30 of the reward red team (docs/decisions/0473).

const { judge } = oracleGym()

describe('docs-apply-suggestions: the rest of the document restyled or added to beside the edits', () => {
  const t = task('docs-apply-suggestions')
  const para = (start: string) => `body.content[paragraph.elements.0.textRun.content~=${start}]`
  const get = http(
    'GET',
    '/v1/documents/{{doc}}',
    {},
    { s: `${para('Between')}.startIndex`, e: `${para('Between')}.endIndex`, h: `${para('For reference')}.startIndex` },
  )
  const batch = (...requests: unknown[]): ProgramStep =>
    http('POST', '/v1/documents/{{doc}}:batchUpdate', { body: { requests } })
  const range = { startIndex: '{{s}}', endIndex: '{{e}}' }
  const extras: ProgramStep[][] = [
    [],
    [get, batch({ updateTextStyle: { range, textStyle: { strikethrough: true }, fields: 'strikethrough' } })],
    [get, batch({ updateParagraphStyle: { range, paragraphStyle: { namedStyleType: 'HEADING_1' }, fields: '*' } })],
    [get, batch({ addDocumentTab: { tabProperties: { title: 'Accepted' } } })],
    [get, batch({ createNamedRange: { name: 'accepted', range } })],
    [get, batch({ insertTable: { rows: 1, columns: 1, endOfSegmentLocation: {} } })],
    [get, batch({ createFooter: { type: 'DEFAULT' } })],
  ]
  it('a struck-through or restyled paragraph, an added tab, named range, table or footer earn nothing', async () => {
    const got = []
    for (const more of extras) got.push((await judge(t, thenDone(t, more))).reward)
    expect(got).toEqual([1, 0, 0, 0, 0, 0, 0])
    const v = await judge(t, thenDone(t, extras[1]!))
    const failed = (v.details as { checks: { name: string; ok: boolean }[] }).checks.filter((c) => !c.ok)
    expect(failed.map((c) => c.name)).toEqual(['the rest of the document is unchanged'])
  })
})
