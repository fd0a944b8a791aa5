import { describe, expect, it } from 'vitest'
import type { ProgramStep } from '../../gym/task.ts'
import { familyTask as task, http, oracleGym, oracleParams, referenceSteps, thenDone } from './support.ts'

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

  it('honest: each clause of legal retyped whole, with or without its paragraph mark, pays', async () => {
    const edits = [...(oracleParams(t).edits as { clause: string; from: string; to: string }[])].reverse()
    const content = (t.seed as { docs: { documents: { content: (string | { text: string })[] }[] } }).docs
    const texts = content.documents[0]!.content.map((c) => (typeof c === 'string' ? c : c.text))
    const want = edits.map((e) => texts.find((x) => x.startsWith(e.clause))!.replace(e.from, e.to))
    const at = Object.fromEntries(
      edits.flatMap((e, k) => [
        [`s${k}`, `${para(e.clause)}.startIndex`],
        [`e${k}`, `${para(e.clause)}.endIndex`],
      ]),
    )
    const inline = http('GET', '/v1/documents/{{doc}}', { query: { suggestionsViewMode: 'SUGGESTIONS_INLINE' } }, at)
    const look = referenceSteps(t).slice(0, -1)
    const retype = batch(
      ...want.flatMap((w, k) => [
        { deleteContentRange: { range: { startIndex: `{{s${k}}}`, endIndex: `{{e${k}-1}}` } } },
        { insertText: { location: { index: `{{s${k}}}` }, text: w } },
      ]),
    )
    const withMark = batch(
      ...want.flatMap((w, k) => [
        { insertText: { location: { index: `{{s${k}}}` }, text: `${w}\n` } },
        {
          deleteContentRange: {
            range: { startIndex: `{{s${k}+${w.length + 1}}}`, endIndex: `{{e${k}+${w.length + 1}}}` },
          },
        },
      ]),
    )
    const got = [
      (await judge(t, [...look, inline, retype])).reward,
      (await judge(t, [...look, inline, withMark])).reward,
    ]
    expect(got).toEqual([1, 1])
  })
})
