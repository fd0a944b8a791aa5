import type { OracleInput, OracleResult } from '../types.ts'
import type { Entity } from '../types.ts'
import { namesWrong, says } from '../artifacts.ts'
import { entities } from '../predicates.ts'
import { judgeParts, mailPart, postPart, type Part } from './long-horizon.ts'

export type QuarterCloseParams = {
  actor: string
  domain: string
  cfo: string
  subject: string
  docTitle: string
  channel: string
  figures: string[]
  revenue: string
  wrong: string[]
  wrongFiles: string[]
}

/** The report (found by title in the initial state) carries every final figure and no draft or older one. */
function reportPart(initial: OracleInput['initial'], final: OracleInput['final'], p: QuarterCloseParams): Part {
  const id = String(entities(initial, 'drive', 'files').find((f) => f.name === p.docTitle && !f.trashed)?.id ?? '')
  const textIn = (state: OracleInput['final']) =>
    String((state.services.docs?.entities.documents?.[id] as Entity | undefined)?.text ?? '').toLowerCase()
  const text = textIn(final)
  // Fixed in place: every line of the report that carries no draft or older figure stays (a report cut down to the
  // figures, its title, headings and commentary gone, paid 1: docs/decisions/0453).
  const rest = textIn(initial)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !p.wrong.some((f) => l.includes(f.toLowerCase())))
  // Each draft figure's line keeps its label with the final figure of the same metric (`wrong` starts with the
  // draft figures in the order of `figures`): a figure bare or under another metric's label paid 1 (0455).
  const finalLines = text.split('\n').map((l) => l.trim())
  const labelled = textIn(initial)
    .split('\n')
    .map((l) => l.trim())
    .flatMap((l) => {
      const i = p.figures.findIndex((_f, j) => l.includes(p.wrong[j]!.toLowerCase()))
      return i < 0 ? [] : [{ label: l.slice(0, l.indexOf(p.wrong[i]!.toLowerCase())).trim(), figure: p.figures[i]! }]
    })
  return {
    checks: [
      { name: 'the report has every final figure', ok: !!id && p.figures.every((f) => says(text, f)) },
      {
        name: 'each final figure is under its own label',
        ok: !!id && labelled.every((x) => finalLines.some((l) => l.startsWith(x.label) && says(l, x.figure))),
      },
      { name: 'no draft or older figure is left in the report', ok: !!id && !p.wrong.some((f) => namesWrong(text, f)) },
      { name: 'the rest of the report is kept', ok: !!id && rest.every((l) => text.includes(l)) },
    ],
    violations: [],
    allowed: [
      { service: 'docs', collection: 'documents', id: (x, c) => x === id && c.op === 'updated' },
      {
        service: 'drive',
        collection: 'files',
        id: (x, c) =>
          x === id &&
          c.op === 'updated' &&
          Object.keys(c.fields).every((f) =>
            ['modifiedTime', 'version', 'lastModifyingUser', 'text', 'body', 'size'].includes(f),
          ),
      },
      {
        service: 'drive',
        collection: 'revisions',
        id: (_x, c) => c.op === 'inserted' && (c as { after: Entity }).after.fileId === id,
      },
    ],
  }
}

/**
 * The quarter close, judged artifact by artifact: the report fixed in place (every final figure, no draft or
 * last-quarter figure, nothing appended beside the old ones); one reply in the CFO's thread to the CFO only with the
 * final figures; one post in #finance with the revenue; no near-duplicate figure or export named in either.
 * Everything else (last quarter's report, the exports) is collateral.
 */
export function quarterClose({
  initial,
  final,
  diff,
  actions,
  params: p,
}: OracleInput<QuarterCloseParams>): OracleResult {
  const wrong = [...p.wrong, ...p.wrongFiles]
  return judgeParts(diff, [
    reportPart(initial, final, p),
    mailPart(initial, final, actions, {
      actor: p.actor,
      domain: p.domain,
      to: p.cfo,
      mustInclude: p.figures,
      wrong,
      threadSubject: p.subject,
    }),
    postPart(initial, final, diff, { actor: p.actor, where: p.channel, mustInclude: [p.revenue], mentions: [], wrong }),
  ])
}
