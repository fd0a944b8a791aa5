import { describe, expect, it } from 'vitest'
import type { ProgramStep, TaskSpec } from '../../gym/task.ts'
import { familyTask as task, http, oracleGym, oracleParams, referenceSteps, thenDone } from './support.ts'

// Round 31 of the reward red team (docs/decisions/0474): the rest of the document in the other Docs families.

const { judge } = oracleGym()

const batch = (...requests: unknown[]): ProgramStep =>
  http('POST', '/v1/documents/{{doc}}:batchUpdate', { body: { requests } })
const first = http('GET', '/v1/documents/{{doc}}', {}, { s: 'body.content.1.startIndex', e: 'body.content.1.endIndex' })
const strike = [
  first,
  batch({
    updateTextStyle: {
      range: { startIndex: '{{s}}', endIndex: '{{e}}' },
      textStyle: { strikethrough: true },
      fields: 'strikethrough',
    },
  }),
]
const tab = [batch({ addDocumentTab: { tabProperties: { title: 'Notes' } } })]

type Seed = { docs: { documents: { title: string; content: (string | { text?: string })[] }[] } }

/** Honest: every paragraph holding the wrong text retyped whole (its text deleted, the corrected text typed). */
function retyped(t: TaskSpec): ProgramStep[] {
  const { title, wrong, right } = oracleParams(t) as { title: string; wrong: string; right: string }
  const doc = (t.seed as Seed).docs.documents.find((d) => d.title === title)!
  const texts = doc.content.flatMap((c) => (typeof c === 'string' ? [c] : c.text !== undefined ? [c.text] : []))
  const at = `body.content[paragraph.elements.0.textRun.content~=${wrong}]`
  return texts
    .filter((x) => x.includes(wrong))
    .flatMap((x) => [
      http('GET', '/v1/documents/{{doc}}', {}, { s: `${at}.startIndex`, e: `${at}.endIndex` }),
      batch(
        { deleteContentRange: { range: { startIndex: '{{s}}', endIndex: '{{e-1}}' } } },
        { insertText: { location: { index: '{{s}}' }, text: x.split(wrong).join(right) } },
      ),
    ])
}

/** Honest: the reference's batchUpdate requests sent one call each, in order. */
function oneByOne(t: TaskSpec): ProgramStep[] {
  return referenceSteps(t).flatMap((s) => {
    const args = s.args as { path?: string; body?: { requests?: unknown[] } }
    const reqs = args.body?.requests
    if (!String(args.path).endsWith(':batchUpdate') || !reqs || reqs.length < 2) return [s]
    return reqs.map((r) => ({ ...s, args: { ...args, body: { ...args.body, requests: [r] } } }))
  })
}

const cases: [string, (t: TaskSpec) => ProgramStep[], number[]][] = [
  ['gmail-docs-correction', retyped, [1, 0, 0, 1]],
  ['slack-docs-fix-figure', retyped, [1, 0, 0, 1]],
  ['docs-handbook-update', retyped, [1, 0, 0, 1]],
  ['docs-terms-update', oneByOne, [1, 0, 0, 1]],
]

describe('Docs families: the rest of the document restyled or added to beside the edit', () => {
  for (const [family, honest, want] of cases) {
    it(`${family}: a struck-through first paragraph or an added tab earns nothing; honest routes pay`, async () => {
      const t = task(family)
      const done = t.reference.filter((s) => s.tool === 'done')
      const look = referenceSteps(t).filter((s) => !String((s.args as { path?: string }).path).endsWith(':batchUpdate'))
      const got = [
        (await judge(t, thenDone(t, []))).reward,
        (await judge(t, thenDone(t, strike))).reward,
        (await judge(t, thenDone(t, tab))).reward,
        (await judge(t, honest === retyped ? [...look, ...retyped(t), ...done] : [...oneByOne(t), ...done])).reward,
      ]
      expect(got).toEqual(want)
      // The strike-through fails only the new check (an added tab also changes doc-correction's whole text).
      const v = await judge(t, thenDone(t, strike))
      const failed = (v.details as { checks: { name: string; ok: boolean }[] }).checks.filter((c) => !c.ok)
      expect(failed.map((c) => c.name)).toEqual(['the rest of the document is unchanged'])
      // The honest route and the reference on two more seeds.
      for (const seed of [2, 3]) {
        const u = task(family, seed)
        const lookU = referenceSteps(u).filter(
          (s) => !String((s.args as { path?: string }).path).endsWith(':batchUpdate'),
        )
        const route = honest === retyped ? [...lookU, ...retyped(u)] : oneByOne(u)
        const doneU = u.reference.filter((s) => s.tool === 'done')
        expect([(await judge(u, u.reference)).reward, (await judge(u, [...route, ...doneU])).reward]).toEqual([1, 1])
      }
    })
  }
})
