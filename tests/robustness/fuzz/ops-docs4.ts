import type { docs_v1 } from 'googleapis'
import type { Fuzz, Op } from './engine.ts'
import { docsBatch } from './ops-docs2.ts'
import { docCreated, pickLiveDoc, touched } from './ops-drive.ts'
import { base, cuts, dropSegment, setText, shiftDelete, shiftInsert, textOf } from './ops-docs3.ts'
import { compare, REF, SB, type Doc, type Section } from './docs4-model.ts'

export type { DocBatchModel } from './docs4-model.ts'

// Docs batches of several requests and sections (docs/decisions/0461): each batchUpdate holds one to five requests
// drawn against the document as the earlier requests of the same batch leave it (inserts shift later indexes,
// deletes take footnotes and section breaks, ranges are named over text just written); one request in four batches is
// one Docs refuses (an index past the end, a footnote or header deleted earlier in the batch, the newline before a
// section break, a second DEFAULT header, a section break or footnote outside the body), and then the whole batch
// must answer 400 and change nothing, revision included. Section breaks (NEXT_PAGE, CONTINUOUS) are inserted and
// deleted; headers and footers are made for the document (also through the body's first section break) and for
// one section. After each batch the body (paragraphs, section breaks with their type and header and footer ids,
// footnote references), the headers, footers and footnotes, the document style and the named ranges must be the
// model's.

/** Ids of objects a batch makes are known only from its replies: `NEW(i)` stands for request i's until then. */
const NEW = (i: number) => `\uE100${i}\uE101`
const isNew = (id: string) => id.startsWith('\uE100')

const model = (f: Fuzz) => f.model.docBatch

const count = (s: string, ch: string) => [...s].filter((c) => c === ch).length
/** Offsets of a body where a paragraph holds the position (not a section break's own index). */
const inParagraph = (body: string) => cuts(body).filter((k) => body[k] !== SB)

/** The working copy a batch is drawn against, and the segments its earlier requests removed. */
type Draft = { doc: Doc; gone: string[]; i: number }
type Req = docs_v1.Schema$Request
/** Segments a request may address by id: those that existed before the batch and still exist. */
const known = (d: Draft) => Object.keys(d.doc.segs).filter((s) => !isNew(s))
const pickSeg = (f: Fuzz, d: Draft) => (f.rng.chance(0.4) ? '' : f.rng.pick(['', ...known(d)]))

function insertText(f: Fuzz, d: Draft): Req {
  const { doc } = d
  const seg = pickSeg(f, d)
  const old = textOf(doc, seg)
  const atEnd = f.rng.chance(0.2)
  const k = atEnd ? old.length : f.rng.pick(seg === '' ? inParagraph(old) : cuts(old))
  const text = f.rng.chance(0.25) ? `${f.rng.text(12)}\n${f.rng.text(12)}` : f.rng.text(20)
  const x = base(seg) + k
  setText(doc, seg, old.slice(0, k) + text + old.slice(k))
  shiftInsert(doc, seg, x, text.length)
  const segmentId = seg || undefined
  return atEnd
    ? { insertText: { endOfSegmentLocation: { segmentId }, text } }
    : { insertText: { location: { segmentId, index: x }, text } }
}

/** A range to delete, or undefined when it would take the newline before a section break without the break. */
function deleteRange(f: Fuzz, d: Draft): Req | undefined {
  const { doc } = d
  const seg = pickSeg(f, d)
  const old = textOf(doc, seg)
  const cs = cuts(old)
  if (cs.length < 2) return undefined
  const u = f.rng.int(cs.length - 1)
  const v = u + 1 + f.rng.int(Math.min(cs.length - 1 - u, 1 + f.rng.int(12)))
  if (seg === '' && old[cs[v]!] === SB) return undefined
  const [a, b] = [base(seg) + cs[u]!, base(seg) + cs[v]!]
  if (seg === '') {
    const [head, cut] = [old.slice(0, cs[u]), old.slice(cs[u], cs[v])]
    for (const note of doc.refs.splice(count(head, REF), count(cut, REF))) (dropSegment(doc, note), d.gone.push(note))
    for (const s of doc.sections.splice(count(head, SB), count(cut, SB)))
      for (const id of [s.header, s.footer]) if (id) (dropSegment(doc, id), doc.orphans.push(id))
  }
  setText(doc, seg, old.slice(0, cs[u]) + old.slice(cs[v]))
  shiftDelete(doc, seg, a, b)
  return { deleteContentRange: { range: { segmentId: seg || undefined, startIndex: a, endIndex: b } } }
}

function footnote(f: Fuzz, d: Draft): Req {
  const { doc } = d
  const atEnd = f.rng.chance(0.25)
  const k = atEnd ? doc.body.length : f.rng.pick(inParagraph(doc.body))
  const note = NEW(d.i)
  doc.refs.splice(count(doc.body.slice(0, k), REF), 0, note)
  doc.body = doc.body.slice(0, k) + REF + doc.body.slice(k)
  doc.segs[note] = ' '
  shiftInsert(doc, '', 1 + k, 1)
  return atEnd ? { createFootnote: { endOfSegmentLocation: {} } } : { createFootnote: { location: { index: 1 + k } } }
}

function sectionBreak(f: Fuzz, d: Draft): Req {
  const { doc } = d
  const atEnd = f.rng.chance(0.2)
  const k = atEnd ? doc.body.length : f.rng.pick(inParagraph(doc.body))
  const sectionType = f.rng.chance(0.5) ? 'NEXT_PAGE' : 'CONTINUOUS'
  doc.sections.splice(count(doc.body.slice(0, k), SB), 0, { type: sectionType })
  doc.body = `${doc.body.slice(0, k)}\n${SB}${doc.body.slice(k)}`
  shiftInsert(doc, '', 1 + k, 2)
  return atEnd
    ? { insertSectionBreak: { endOfSegmentLocation: {}, sectionType } }
    : { insertSectionBreak: { location: { index: 1 + k }, sectionType } }
}

/** The body index of the n-th section break after the first. */
function breakAt(doc: Doc, n: number): number {
  let at = -1
  for (let i = 0; i <= n; i++) at = doc.body.indexOf(SB, at + 1)
  return 1 + at
}

/** A header or footer made or deleted, for the document or one section; undefined when none can be. */
function headerFooter(f: Fuzz, d: Draft): Req | undefined {
  const { doc } = d
  const kind = f.rng.chance(0.5) ? 'header' : 'footer'
  const Kind = kind === 'header' ? 'Header' : 'Footer'
  const n = doc.sections.length && f.rng.chance(0.5) ? f.rng.int(doc.sections.length) : -1
  const owner: { header?: string; footer?: string } = n < 0 ? doc : doc.sections[n]!
  const have = owner[kind]
  if (have) {
    if (isNew(have)) return undefined
    owner[kind] = undefined
    dropSegment(doc, have)
    d.gone.push(have)
    return { [`delete${Kind}`]: { [`${kind}Id`]: have } }
  }
  const id = NEW(d.i)
  owner[kind] = id
  doc.segs[id] = ''
  // The document's own: no location, or the body's first section break (index 0).
  const index = n < 0 ? (f.rng.chance(0.5) ? undefined : 0) : breakAt(doc, n)
  return { [`create${Kind}`]: { type: 'DEFAULT', ...(index === undefined ? {} : { sectionBreakLocation: { index } }) } }
}

function namedRange(f: Fuzz, d: Draft): Req | undefined {
  const { doc } = d
  // A range whose ends are not modelled may have been emptied by a delete (and be gone): only sure ones are named.
  const old = doc.ranges.filter((r) => !isNew(r.id) && r.sure)
  if (old.length && f.rng.chance(0.3)) {
    const r = f.rng.pick(old)
    doc.ranges = doc.ranges.filter((x) => x !== r)
    return { deleteNamedRange: { namedRangeId: r.id } }
  }
  const seg = pickSeg(f, d)
  const cs = cuts(textOf(doc, seg))
  if (cs.length < 2) return undefined
  const u = f.rng.int(cs.length - 1)
  const v = u + 1 + f.rng.int(cs.length - 1 - u)
  const [a, b] = [base(seg) + cs[u]!, base(seg) + cs[v]!]
  const name = `batch range ${++model(f).n}`
  doc.ranges.push({ id: NEW(d.i), name, seg, start: a, end: b, sure: true })
  return { createNamedRange: { name, range: { segmentId: seg || undefined, startIndex: a, endIndex: b } } }
}

/** A request Docs refuses at this point of the batch (the draft is left as it is). */
function refused(f: Fuzz, d: Draft): [Req, string] {
  const { doc } = d
  const others = known(d)
  const gone = d.gone.filter((id) => !isNew(id))
  const sb = doc.sections.length ? breakAt(doc, f.rng.int(doc.sections.length)) : 0
  const kinds = [
    ...(gone.length ? ['gone', 'gone'] : []),
    'past',
    'unknown',
    ...(others.length ? ['footnoteOut', 'breakOut'] : []),
    // The newline before a section break, its paragraph holding text (an empty paragraph may go whole).
    ...(sb >= 3 && !['\n', SB].includes(doc.body[sb - 3]!) ? ['newline'] : []),
    ...(sb ? ['atBreak'] : []),
    ...(doc.header && !isNew(doc.header) ? ['second'] : []),
  ]
  const kind = f.rng.pick(kinds)
  const text = f.rng.text(10)
  switch (kind) {
    case 'gone': {
      const segmentId = f.rng.pick(gone)
      return [{ insertText: { location: { segmentId, index: 0 }, text } }, `text into ${segmentId}, gone`]
    }
    case 'past': {
      const index = 2 + doc.body.length + f.rng.int(4)
      return [{ insertText: { location: { index }, text } }, `text at ${index}, past the body's end`]
    }
    case 'unknown':
      return [{ deleteFooter: { footerId: 'kix.nosuchsegment' } }, 'an unknown footer deleted']
    case 'footnoteOut': {
      const segmentId = f.rng.pick(others)
      return [{ createFootnote: { location: { segmentId, index: 0 } } }, `a footnote in ${segmentId}`]
    }
    case 'breakOut': {
      const segmentId = f.rng.pick(others)
      const req = { insertSectionBreak: { location: { segmentId, index: 0 }, sectionType: 'CONTINUOUS' } }
      return [req, `a section break in ${segmentId}`]
    }
    case 'newline':
      return [{ deleteContentRange: { range: { startIndex: sb - 1, endIndex: sb } } }, `the newline before ${sb}`]
    case 'atBreak':
      return [{ insertText: { location: { index: sb }, text } }, `text at the section break ${sb}`]
    default:
      return [{ createHeader: { type: 'DEFAULT', sectionBreakLocation: { index: 0 } } }, 'a second document header']
  }
}

const DRAWS: [number, (f: Fuzz, d: Draft) => Req | undefined][] = [
  [5, insertText],
  [4, deleteRange],
  [2, footnote],
  [2, sectionBreak],
  [2, headerFooter],
  [2, namedRange],
]
function draw(f: Fuzz, d: Draft): Req | undefined {
  let x = f.rng.int(DRAWS.reduce((n, [w]) => n + w, 0))
  for (const [w, fn] of DRAWS) if ((x -= w) < 0) return fn(f, d)
  return undefined
}

const batch = (f: Fuzz, id: string, requests: Req[]) => docsBatch(f, 'batches', id, requests)

async function create(f: Fuzz): Promise<void> {
  const title = `Batches ${++model(f).n}`
  const r = await f.google('documents.create (batches)', true, () =>
    f.docs.documents.create({ requestBody: { title } }),
  )
  f.check(r.ok, () => `documents.create: ${r.status}`)
  if (!r.ok) return
  const id = r.data.documentId!
  model(f).docs[id] = {
    body: '',
    refs: [],
    sections: [],
    segs: {},
    orphans: [],
    ranges: [],
    rev: r.data.revisionId ?? '',
  }
  docCreated(f, id, title)
}

/** The id a reply gives for request i's new object. */
function replyId(reply: docs_v1.Schema$Response | undefined): string | undefined {
  return (
    reply?.createFootnote?.footnoteId ??
    reply?.createHeader?.headerId ??
    reply?.createFooter?.footerId ??
    reply?.createNamedRange?.namedRangeId ??
    undefined
  )
}

async function run(f: Fuzz): Promise<void> {
  const picked = pickLiveDoc(f, model(f).docs)
  if (!picked) return create(f)
  const [id, doc] = picked
  const d: Draft = { doc: structuredClone(doc), gone: [], i: 0 }
  const n = 1 + f.rng.int(5)
  let bad = f.rng.chance(0.25) ? f.rng.int(n) : -1
  const requests: Req[] = []
  let why = ''
  for (let tries = 0; requests.length < n && tries < 3 * n; tries++) {
    d.i = requests.length
    // A segment an earlier request removed is addressed more often than chance would.
    if (bad < 0 && d.gone.some((x) => !isNew(x)) && f.rng.chance(0.3)) bad = d.i
    if (d.i === bad) {
      const [req, what] = refused(f, d)
      requests.push(req)
      why = `request ${d.i}, ${what}`
      continue
    }
    const req = draw(f, d)
    if (req) requests.push(req)
  }
  if (!requests.length) return
  const res = await batch(f, id, requests)
  const what = `batch ${JSON.stringify(requests).slice(0, 600)}`
  if (why) {
    f.check(!res.ok && res.status === 400, () => `${what}: ${res.status}, expected 400 (${why})`)
    return compare(f, id)
  }
  f.check(res.ok, () => `${what}: ${res.status} ${JSON.stringify(res.data).slice(0, 400)}`)
  if (!res.ok) return
  const replies = res.data.replies ?? []
  f.equal(replies.length, requests.length, 'one reply per request')
  let json = JSON.stringify(d.doc)
  requests.forEach((_, i) => {
    const made = replyId(replies[i])
    if (made) json = json.replaceAll(NEW(i), made)
  })
  f.check(!json.includes('\uE100'), () => `${what}: a new object without an id in the replies`)
  const next = JSON.parse(json) as Doc
  next.rev = res.data.writeControl?.requiredRevisionId ?? ''
  model(f).docs[id] = next
  if (f.model.drive.root) touched(f, id)
  return compare(f, id)
}

async function check(f: Fuzz): Promise<void> {
  const picked = pickLiveDoc(f, model(f).docs)
  if (!picked) return create(f)
  return compare(f, picked[0])
}

export const docBatchOps: Op[] = [
  { name: 'docs4.create', weight: 1, run: create },
  { name: 'docs4.batch', weight: 10, run },
  { name: 'docs4.check', weight: 1, run: check },
]
