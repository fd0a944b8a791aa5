import type { docs_v1 } from 'googleapis'
import type { Fuzz, Op } from './engine.ts'
import { docsBatch } from './ops-docs2.ts'
import { docCreated, pickLiveDoc, touched } from './ops-drive.ts'

// Docs segments (docs/decisions/0456): a DEFAULT header and footer made and deleted (a second one refused, an unknown
// id refused), footnotes made at a body index or the body's end (never in another segment), text inserted and deleted
// in the body and in every segment by `segmentId`, a body delete taking footnote references with it (their footnotes
// go), named ranges in any segment moving with the edits and going with their segment. After each write the body
// (paragraphs, footnote references with their ids and numbers, indexes), the headers, footers and footnotes (ids,
// texts, indexes from 0), the document style's header and footer ids and the named ranges must be the model's.

/** A footnote reference in a modelled text: one index, like any character of the BMP. */
const REF = '\uE000'
/** A segment's text without its last newline; a named range in one segment ('' is the body). */
type Named = { id: string; name: string; seg: string; start: number; end: number; sure: boolean }
type Doc = {
  body: string
  /** Footnote ids in body order (one per REF). */
  refs: string[]
  header?: string
  footer?: string
  segs: Record<string, string>
  ranges: Named[]
  rev: string
}
export type DocSegsModel = { docs: Record<string, Doc>; n: number }

const model = (f: Fuzz) => f.model.docSegs

/** What the segment helpers below read of a modelled document (this family's, and docBatch's in docs4-model.ts). */
type Segmented = { body: string; segs: Record<string, string> }

/** UTF-16 offsets between code points of `s`. */
export function cuts(s: string): number[] {
  const out = [0]
  let at = 0
  for (const ch of s) out.push((at += ch.length))
  return out
}
/** Where a segment's text starts: 1 in the body (after its section break), 0 elsewhere. */
export const base = (seg: string) => (seg === '' ? 1 : 0)
export const textOf = (doc: Segmented, seg: string) => (seg === '' ? doc.body : doc.segs[seg]!)
export function setText(doc: Segmented, seg: string, text: string) {
  if (seg === '') doc.body = text
  else doc.segs[seg] = text
}

/** What the range helpers below read of a modelled document (this family's, and docBatch's in docs4-model.ts). */
type Ranged = { segs: Record<string, string>; ranges: Named[] }

/** Text inserted at `x` of a segment: its named ranges after it move (an end at `x` is no longer sure). */
export function shiftInsert(doc: Ranged, seg: string, x: number, len: number) {
  for (const r of doc.ranges) {
    if (r.seg !== seg) continue
    if (x === r.start || x === r.end) r.sure = false
    if (x <= r.start) r.start += len
    if (x <= r.end) r.end += len
  }
}
/** `[a, b)` of a segment deleted: its named ranges shrink or move, and a sure range left empty goes. */
export function shiftDelete(doc: Ranged, seg: string, a: number, b: number) {
  const map = (p: number) => (p <= a ? p : p >= b ? p - (b - a) : a)
  for (const r of doc.ranges) if (r.seg === seg) [r.start, r.end] = [map(r.start), map(r.end)]
  doc.ranges = doc.ranges.filter((r) => r.seg !== seg || r.start < r.end || !r.sure)
}
/** A segment gone (header or footer deleted, footnote reference deleted): its named ranges go with it. */
export function dropSegment(doc: Ranged, seg: string) {
  delete doc.segs[seg]
  doc.ranges = doc.ranges.filter((r) => r.seg !== seg)
}

const batch = (f: Fuzz, id: string, requests: docs_v1.Schema$Request[]) => docsBatch(f, 'segments', id, requests)

async function applied(f: Fuzz, id: string, r: Awaited<ReturnType<typeof batch>>, what: string) {
  f.check(r.ok, () => `${what}: ${r.status} ${JSON.stringify(r.data).slice(0, 400)}`)
  if (!r.ok) return
  model(f).docs[id]!.rev = r.data.writeControl?.requiredRevisionId ?? ''
  if (f.model.drive.root) touched(f, id)
  await compare(f, id)
}

async function create(f: Fuzz): Promise<void> {
  const title = `Segments ${++model(f).n}`
  const r = await f.google('documents.create (segments)', true, () =>
    f.docs.documents.create({ requestBody: { title } }),
  )
  f.check(r.ok, () => `documents.create: ${r.status}`)
  if (!r.ok) return
  const id = r.data.documentId!
  model(f).docs[id] = { body: '', refs: [], segs: {}, ranges: [], rev: r.data.revisionId ?? '' }
  docCreated(f, id, title)
}

const pickDoc = (f: Fuzz) => pickLiveDoc(f, model(f).docs)
/** The body ('') or one of the document's segments. */
const pickSeg = (f: Fuzz, doc: Doc) => (f.rng.chance(0.4) ? '' : f.rng.pick(['', ...Object.keys(doc.segs)]))

async function insertText(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  if (!picked) return create(f)
  const [id, doc] = picked
  const seg = pickSeg(f, doc)
  const old = textOf(doc, seg)
  const atEnd = f.rng.chance(0.2)
  const k = atEnd ? old.length : f.rng.pick(cuts(old))
  const text = f.rng.chance(0.25) ? `${f.rng.text(12)}\n${f.rng.text(12)}` : f.rng.text(20)
  const x = base(seg) + k
  const segmentId = seg || undefined
  const req = atEnd
    ? { insertText: { endOfSegmentLocation: { segmentId }, text } }
    : { insertText: { location: { segmentId, index: x }, text } }
  const res = await batch(f, id, [req])
  setText(doc, seg, old.slice(0, k) + text + old.slice(k))
  shiftInsert(doc, seg, x, text.length)
  return applied(f, id, res, `insert ${JSON.stringify(text)} at ${x} of segment '${seg}'`)
}

async function deleteRange(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  if (!picked) return create(f)
  const [id, doc] = picked
  const seg = pickSeg(f, doc)
  const old = textOf(doc, seg)
  const cs = cuts(old)
  if (cs.length < 2) return insertText(f)
  const u = f.rng.int(cs.length - 1)
  const v = u + 1 + f.rng.int(Math.min(cs.length - 1 - u, 1 + f.rng.int(12)))
  const [a, b] = [base(seg) + cs[u]!, base(seg) + cs[v]!]
  const range = { segmentId: seg || undefined, startIndex: a, endIndex: b }
  const res = await batch(f, id, [{ deleteContentRange: { range } }])
  if (seg === '') {
    // Footnote references in the range go, and their footnotes with them.
    const before = [...old.slice(0, cs[u])].filter((c) => c === REF).length
    const gone = [...old.slice(cs[u], cs[v])].filter((c) => c === REF).length
    for (const note of doc.refs.splice(before, gone)) dropSegment(doc, note)
  }
  setText(doc, seg, old.slice(0, cs[u]) + old.slice(cs[v]))
  shiftDelete(doc, seg, a, b)
  return applied(f, id, res, `delete [${a}, ${b}) of segment '${seg}'`)
}

async function headerFooter(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  if (!picked) return create(f)
  const [id, doc] = picked
  const kind = f.rng.chance(0.5) ? 'header' : 'footer'
  const have = doc[kind]
  if (have && f.rng.chance(0.6)) {
    const req = kind === 'header' ? { deleteHeader: { headerId: have } } : { deleteFooter: { footerId: have } }
    const res = await batch(f, id, [req])
    doc[kind] = undefined
    dropSegment(doc, have)
    return applied(f, id, res, `delete ${kind} ${have}`)
  }
  if (have || f.rng.chance(0.1)) {
    // A second DEFAULT one, or an unknown id to delete: refused, nothing changes.
    const req: docs_v1.Schema$Request = have
      ? { [kind === 'header' ? 'createHeader' : 'createFooter']: { type: 'DEFAULT' } }
      : { [kind === 'header' ? 'deleteHeader' : 'deleteFooter']: { [`${kind}Id`]: 'kix.nosuchsegment' } }
    const res = await batch(f, id, [req])
    return f.equal(res.status, 400, `${Object.keys(req)[0]} refused`)
  }
  const req = kind === 'header' ? { createHeader: { type: 'DEFAULT' } } : { createFooter: { type: 'DEFAULT' } }
  const res = await batch(f, id, [req])
  const reply = res.ok ? res.data.replies?.[0] : undefined
  const sid = (kind === 'header' ? reply?.createHeader?.headerId : reply?.createFooter?.footerId) ?? ''
  doc[kind] = sid
  doc.segs[sid] = ''
  return applied(f, id, res, `create ${kind}`)
}

async function footnote(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  if (!picked) return create(f)
  const [id, doc] = picked
  const others = Object.keys(doc.segs)
  if (others.length && f.rng.chance(0.1)) {
    const segmentId = f.rng.pick(others)
    const res = await batch(f, id, [{ createFootnote: { location: { segmentId, index: 0 } } }])
    return f.equal(res.status, 400, `a footnote in segment ${segmentId}`)
  }
  const atEnd = f.rng.chance(0.25)
  const k = atEnd ? doc.body.length : f.rng.pick(cuts(doc.body))
  const x = 1 + k
  const req = atEnd ? { createFootnote: { endOfSegmentLocation: {} } } : { createFootnote: { location: { index: x } } }
  const res = await batch(f, id, [req])
  const note = res.ok ? (res.data.replies?.[0]?.createFootnote?.footnoteId ?? '') : ''
  doc.refs.splice([...doc.body.slice(0, k)].filter((c) => c === REF).length, 0, note)
  doc.body = doc.body.slice(0, k) + REF + doc.body.slice(k)
  doc.segs[note] = ' '
  shiftInsert(doc, '', x, 1)
  return applied(f, id, res, `createFootnote at ${x}`)
}

async function namedRange(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  if (!picked) return create(f)
  const [id, doc] = picked
  if (doc.ranges.length && f.rng.chance(0.3)) {
    const r = f.rng.pick(doc.ranges)
    const res = await batch(f, id, [{ deleteNamedRange: { namedRangeId: r.id } }])
    doc.ranges = doc.ranges.filter((x) => x !== r)
    return applied(f, id, res, `deleteNamedRange ${r.name}`)
  }
  const seg = pickSeg(f, doc)
  const cs = cuts(textOf(doc, seg))
  if (cs.length < 2) return insertText(f)
  const u = f.rng.int(cs.length - 1)
  const v = u + 1 + f.rng.int(cs.length - 1 - u)
  const [a, b] = [base(seg) + cs[u]!, base(seg) + cs[v]!]
  const name = `seg range ${++model(f).n}`
  const range = { segmentId: seg || undefined, startIndex: a, endIndex: b }
  const res = await batch(f, id, [{ createNamedRange: { name, range } }])
  const rid = res.ok ? (res.data.replies?.[0]?.createNamedRange?.namedRangeId ?? '') : ''
  doc.ranges.push({ id: rid, name, seg, start: a, end: b, sure: true })
  return applied(f, id, res, `createNamedRange [${a}, ${b}) of segment '${seg}'`)
}

type Para = { start: number; end: number; text: string }
type Seen = { paras: Para[]; notes: { id: string; number: string }[] }

/** A segment's paragraphs as read: text (REF for a footnote reference), indexes; elements must tile each one. */
function read(f: Fuzz, content: docs_v1.Schema$StructuralElement[], what: string): Seen {
  const seen: Seen = { paras: [], notes: [] }
  for (const e of content) {
    if (e.sectionBreak) continue
    f.check(e.paragraph, () => `${what}: an element other than a paragraph: ${JSON.stringify(e).slice(0, 200)}`)
    let at = e.startIndex ?? 0
    let text = ''
    for (const el of e.paragraph!.elements ?? []) {
      f.equal([el.startIndex ?? 0], [at], `${what}: element start`)
      if (el.footnoteReference) {
        text += REF
        seen.notes.push({ id: el.footnoteReference.footnoteId!, number: el.footnoteReference.footnoteNumber! })
      } else text += el.textRun?.content ?? '?'
      at = el.endIndex ?? 0
    }
    f.equal(at, e.endIndex, `${what}: paragraph end`)
    seen.paras.push({ start: e.startIndex ?? 0, end: e.endIndex ?? 0, text: text.replace(/\n$/, '') })
  }
  return seen
}

/** A modelled text as paragraphs from `from`. */
function paras(text: string, from: number): Para[] {
  let at = from
  return text.split('\n').map((t) => {
    const p = { start: at, end: at + t.length + 1, text: t }
    at = p.end
    return p
  })
}

/** documents.get against the model: body, headers, footers, footnotes, style ids, named ranges. */
async function compare(f: Fuzz, id: string): Promise<void> {
  const doc = model(f).docs[id]!
  const r = await f.google('documents.get (segments)', false, () => f.docs.documents.get({ documentId: id }))
  f.check(r.ok, () => `documents.get: ${r.status}`)
  if (!r.ok) return
  const d = r.data
  f.equal(d.revisionId, doc.rev, 'revisionId')
  const body = read(f, d.body?.content ?? [], 'body')
  f.equal(body.paras, paras(doc.body, 1), `body of ${id}`)
  f.equal(
    body.notes,
    doc.refs.map((n, i) => ({ id: n, number: String(i + 1) })),
    'footnote references',
  )
  f.equal(d.documentStyle?.defaultHeaderId, doc.header, 'defaultHeaderId')
  f.equal(d.documentStyle?.defaultFooterId, doc.footer, 'defaultFooterId')
  const groups = { headers: d.headers, footers: d.footers, footnotes: d.footnotes }
  const want = {
    headers: doc.header ? [doc.header] : [],
    footers: doc.footer ? [doc.footer] : [],
    footnotes: [...doc.refs].sort(),
  }
  for (const [key, group] of Object.entries(groups)) {
    const ids = want[key as keyof typeof want]
    f.equal(Object.keys(group ?? {}).sort(), ids, `${key} ids`)
    for (const sid of ids) {
      const s = (group as Record<string, docs_v1.Schema$Header & docs_v1.Schema$Footnote>)[sid]!
      const own =
        key === 'headers' ? s.headerId : key === 'footers' ? (s as docs_v1.Schema$Footer).footerId : s.footnoteId
      f.equal(own, sid, `${key} ${sid} names itself`)
      f.equal(read(f, s.content ?? [], `${key} ${sid}`).paras, paras(doc.segs[sid]!, 0), `${key} ${sid} content`)
    }
  }
  const ranges = Object.values(d.namedRanges ?? {}).flatMap((g) => g.namedRanges ?? [])
  const live = new Set(doc.ranges.map((x) => x.id))
  for (const x of ranges) f.check(live.has(x.namedRangeId!), () => `named range ${x.name} should be gone`)
  // A range whose ends are not modelled may have been emptied by a delete: the server's word is taken for it.
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

async function check(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  if (!picked) return create(f)
  return compare(f, picked[0])
}

const FORMATS = [
  'text/plain',
  'text/html',
  'text/markdown',
  'application/rtf',
  'application/pdf',
  'application/zip',
  'application/epub+zip',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
]

/** Drive's export of a document with headers, footers and footnotes: every format answers 200 with bytes. */
async function exportDoc(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  if (!picked) return create(f)
  const mimeType = f.rng.pick(FORMATS)
  const r = await f.google(`files.export ${mimeType}`, false, () =>
    f.drive.files.export({ fileId: picked[0], mimeType }, { responseType: 'arraybuffer' }),
  )
  f.check(r.ok, () => `files.export ${mimeType}: ${r.status}`)
  f.check((r.data as unknown as ArrayBuffer).byteLength > 0, `files.export ${mimeType}: no bytes`)
}

export const docSegsOps: Op[] = [
  { name: 'docs3.create', weight: 1, run: create },
  { name: 'docs3.insertText', weight: 5, run: insertText },
  { name: 'docs3.delete', weight: 4, run: deleteRange },
  { name: 'docs3.headerFooter', weight: 2, run: headerFooter },
  { name: 'docs3.footnote', weight: 2, run: footnote },
  { name: 'docs3.namedRange', weight: 2, run: namedRange },
  { name: 'docs3.check', weight: 1, run: check },
  { name: 'docs3.export', weight: 1, run: exportDoc },
]
