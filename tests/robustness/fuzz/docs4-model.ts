import type { docs_v1 } from 'googleapis'
import type { Fuzz } from './engine.ts'

// The model of the `docBatch` family (ops-docs4.ts, docs/decisions/0461) and its comparison with documents.get.

/** A footnote reference and a section break in a modelled body (one index each); a section break follows a newline. */
export const REF = '\uE000'
export const SB = '\uE002'
export type Named = { id: string; name: string; seg: string; start: number; end: number; sure: boolean }
export type Section = { type: string; header?: string; footer?: string }
export type Doc = {
  body: string
  /** Footnote ids in body order (one per REF). */
  refs: string[]
  /** The sections after the first, in body order (one per SB). */
  sections: Section[]
  header?: string
  footer?: string
  segs: Record<string, string>
  /**
   * Section headers and footers whose section break was deleted: the mock keeps them (unreferenced); what Docs does is
   * unverified, so they are neither compared nor addressed.
   */
  orphans: string[]
  ranges: Named[]
  rev: string
}
export type DocBatchModel = { docs: Record<string, Doc>; n: number }

const model = (f: Fuzz) => f.model.docBatch

type Para = { start: number; end: number; text: string }
type Seen = { paras: Para[]; notes: { id: string; number: string }[]; sections: Section[] }

/**
 * A segment's paragraphs as read: text (REF for a footnote reference), indexes; elements must tile each one. A
 * section break after the first is read as SB at the start of the paragraph after it.
 */
function read(f: Fuzz, content: docs_v1.Schema$StructuralElement[], what: string): Seen {
  const seen: Seen = { paras: [], notes: [], sections: [] }
  let pending: number | undefined
  content.forEach((e, i) => {
    if (e.sectionBreak) {
      if (i === 0) {
        const style = e.sectionBreak.sectionStyle
        f.check(!style?.defaultHeaderId && !style?.defaultFooterId, `${what}: the first section break has a header`)
        return
      }
      f.check(pending === undefined, `${what}: two section breaks in a row`)
      const style = e.sectionBreak.sectionStyle ?? {}
      const s: Section = { type: style.sectionType ?? '' }
      if (style.defaultHeaderId) s.header = style.defaultHeaderId
      if (style.defaultFooterId) s.footer = style.defaultFooterId
      seen.sections.push(s)
      pending = e.startIndex ?? 0
      f.equal(e.endIndex, pending + 1, `${what}: section break length`)
      return
    }
    f.check(e.paragraph, () => `${what}: an element other than a paragraph: ${JSON.stringify(e).slice(0, 200)}`)
    let at = e.startIndex ?? 0
    let text = pending === undefined ? '' : SB
    for (const el of e.paragraph!.elements ?? []) {
      f.equal([el.startIndex ?? 0], [at], `${what}: element start`)
      if (el.footnoteReference) {
        text += REF
        seen.notes.push({ id: el.footnoteReference.footnoteId!, number: el.footnoteReference.footnoteNumber! })
      } else text += el.textRun?.content ?? '?'
      at = el.endIndex ?? 0
    }
    f.equal(at, e.endIndex, `${what}: paragraph end`)
    seen.paras.push({ start: pending ?? e.startIndex ?? 0, end: e.endIndex ?? 0, text: text.replace(/\n$/, '') })
    pending = undefined
  })
  return seen
}

function paras(text: string, from: number): Para[] {
  let at = from
  return text.split('\n').map((t) => {
    const p = { start: at, end: at + t.length + 1, text: t }
    at = p.end
    return p
  })
}

/** documents.get against the model. */
export async function compare(f: Fuzz, id: string): Promise<void> {
  const doc = model(f).docs[id]!
  const r = await f.google('documents.get (batches)', false, () => f.docs.documents.get({ documentId: id }))
  f.check(r.ok, () => `documents.get: ${r.status}`)
  if (!r.ok) return
  const d = r.data
  f.equal(d.revisionId, doc.rev, 'revisionId')
  const body = read(f, d.body?.content ?? [], 'body')
  f.equal(body.paras, paras(doc.body, 1), `body of ${id}`)
  const norm = (xs: Section[]) => xs.map((x) => [x.type, x.header, x.footer])
  f.equal(norm(body.sections), norm(doc.sections), 'section breaks')
  f.equal(
    body.notes,
    doc.refs.map((n, i) => ({ id: n, number: String(i + 1) })),
    'footnote references',
  )
  f.equal(d.documentStyle?.defaultHeaderId, doc.header, 'defaultHeaderId')
  f.equal(d.documentStyle?.defaultFooterId, doc.footer, 'defaultFooterId')
  const own = (k: 'header' | 'footer') => [doc[k], ...doc.sections.map((s) => s[k])].filter((x) => x !== undefined)
  const groups = { headers: d.headers, footers: d.footers, footnotes: d.footnotes }
  const want = { headers: own('header'), footers: own('footer'), footnotes: doc.refs }
  for (const [key, group] of Object.entries(groups)) {
    const ids = want[key as keyof typeof want]
    const got = Object.keys(group ?? {}).filter((x) => !doc.orphans.includes(x))
    f.equal(got.sort(), [...ids].sort(), `${key} ids`)
    for (const sid of ids) {
      const s = (group as Record<string, docs_v1.Schema$Header & docs_v1.Schema$Footnote>)[sid]!
      const self =
        key === 'headers' ? s.headerId : key === 'footers' ? (s as docs_v1.Schema$Footer).footerId : s.footnoteId
      f.equal(self, sid, `${key} ${sid} names itself`)
      f.equal(read(f, s.content ?? [], `${key} ${sid}`).paras, paras(doc.segs[sid]!, 0), `${key} ${sid} content`)
    }
  }
  const ranges = Object.values(d.namedRanges ?? {}).flatMap((g) => g.namedRanges ?? [])
  const live = new Set(doc.ranges.map((x) => x.id))
  for (const x of ranges) {
    const segs = (x.ranges ?? []).map((g) => g.segmentId ?? '')
    if (segs.some((s) => doc.orphans.includes(s))) continue
    f.check(live.has(x.namedRangeId!), () => `named range ${x.name} should be gone`)
  }
  doc.ranges = doc.ranges.filter((x) => x.sure || ranges.some((g) => g.namedRangeId === x.id))
  for (const x of doc.ranges.filter((m) => m.sure)) {
    const got = ranges.find((g) => g.namedRangeId === x.id)
    f.equal(
      got?.ranges?.map((g) => [g.segmentId ?? '', g.startIndex ?? 0, g.endIndex]),
      [[x.seg, x.start, x.end]],
      `named range ${x.name}`,
    )
  }
}
