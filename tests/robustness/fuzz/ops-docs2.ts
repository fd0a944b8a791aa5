import type { docs_v1 } from 'googleapis'
import type { Fuzz, Op } from './engine.ts'
import { docCreated, pickLiveDoc, touched } from './ops-drive.ts'

// Docs structure (docs/decisions/0452): documents of paragraphs and tables; text inserted and deleted inside
// paragraphs and cells, across paragraphs (they merge: the surviving newline keeps its bullet) and over whole tables;
// tables inserted, rows inserted and deleted; named ranges created, moved by the edits around them, deleted; bullets
// made and removed; writeControl's requiredRevisionId (the latest passes, an older one fails the batch). After each
// write the body's elements (kind, indexes, text, bullet, cells) and the named ranges must be the model's.

type Para = { t: 'p'; text: string; bullet: boolean }
type Table = { t: 'table'; cells: string[][] }
type El = Para | Table
/** A named range; `sure` is dropped once an edit lands on one of its ends (where it then lies is not modelled). */
type Named = { id: string; name: string; start: number; end: number; sure: boolean }
type Doc = { body: El[]; ranges: Named[]; rev: string; revs: string[] }
export type DocStructModel = { docs: Record<string, Doc>; n: number }

const model = (f: Fuzz) => f.model.docStruct

const paraLen = (p: Para) => p.text.length + 1
const rowLen = (row: string[]) => 1 + row.reduce((n, c) => n + c.length + 2, 0)
const elLen = (e: El) => (e.t === 'p' ? paraLen(e) : 2 + e.cells.reduce((n, r) => n + rowLen(r), 0))
/** Start index of each body element (the body's section break takes [0, 1)). */
function starts(body: El[]): number[] {
  const out: number[] = []
  let at = 1
  for (const e of body) (out.push(at), (at += elLen(e)))
  return out
}
/** UTF-16 offsets between code points of `s`. */
function cuts(s: string): number[] {
  const out = [0]
  let at = 0
  for (const ch of s) out.push((at += ch.length))
  return out
}
/** Where a cell's paragraph starts, in a table starting at `t`. */
function cellStart(table: Table, t: number, r: number, c: number): number {
  let at = t + 1
  for (let i = 0; i < r; i++) at += rowLen(table.cells[i]!)
  at += 1
  for (let j = 0; j < c; j++) at += table.cells[r]![j]!.length + 2
  return at + 1
}

/** Named ranges after `len` units are inserted at `x`. */
function shiftInsert(doc: Doc, x: number, len: number) {
  for (const r of doc.ranges) {
    if (x === r.start || x === r.end) r.sure = false
    if (x <= r.start) r.start += len
    if (x <= r.end) r.end += len
  }
}
/** Named ranges after [a, b) is deleted: a range left empty is gone. */
function shiftDelete(doc: Doc, a: number, b: number) {
  const map = (p: number) => (p <= a ? p : p >= b ? p - (b - a) : a)
  for (const r of doc.ranges) [r.start, r.end] = [map(r.start), map(r.end)]
  doc.ranges = doc.ranges.filter((r) => r.start < r.end || !r.sure)
}

/** One `documents.batchUpdate` of a Docs family, named `documents.batchUpdate (<family>)` in its trace. */
export function docsBatch(
  f: Fuzz,
  family: string,
  id: string,
  requests: docs_v1.Schema$Request[],
  writeControl?: docs_v1.Schema$WriteControl,
) {
  return f.google(`documents.batchUpdate (${family})`, true, () =>
    f.docs.documents.batchUpdate({ documentId: id, requestBody: { requests, writeControl } }),
  )
}
const batch = (f: Fuzz, id: string, requests: docs_v1.Schema$Request[], writeControl?: docs_v1.Schema$WriteControl) =>
  docsBatch(f, 'structure', id, requests, writeControl)

/** After a batch that must pass: the new revision is kept and the document compared with the model. */
async function applied(f: Fuzz, id: string, r: Awaited<ReturnType<typeof batch>>, what: string) {
  f.check(r.ok, () => `${what}: ${r.status} ${JSON.stringify(r.data).slice(0, 400)}`)
  if (!r.ok) return
  const doc = model(f).docs[id]!
  doc.revs.push(doc.rev)
  doc.rev = r.data.writeControl?.requiredRevisionId ?? ''
  if (f.model.drive.root) touched(f, id)
  await compare(f, id)
}

async function create(f: Fuzz): Promise<void> {
  const title = `Structure ${++model(f).n}`
  const r = await f.google('documents.create (structure)', true, () =>
    f.docs.documents.create({ requestBody: { title } }),
  )
  f.check(r.ok, () => `documents.create: ${r.status}`)
  if (!r.ok) return
  const doc: Doc = { body: [{ t: 'p', text: '', bullet: false }], ranges: [], rev: r.data.revisionId ?? '', revs: [] }
  model(f).docs[r.data.documentId!] = doc
  docCreated(f, r.data.documentId!, title)
}

const pickDoc = (f: Fuzz) => pickLiveDoc(f, model(f).docs)

const paragraphs = (doc: Doc) => doc.body.flatMap((e, i) => (e.t === 'p' ? [i] : []))
const tables = (doc: Doc) => doc.body.flatMap((e, i) => (e.t === 'table' ? [i] : []))

async function insertText(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  if (!picked) return create(f)
  const [id, doc] = picked
  const at = starts(doc.body)
  const inCell = tables(doc).length > 0 && f.rng.chance(0.3)
  if (inCell) {
    const i = f.rng.pick(tables(doc))
    const table = doc.body[i] as Table
    const r = f.rng.int(table.cells.length)
    const c = f.rng.int(table.cells[r]!.length)
    const k = f.rng.pick(cuts(table.cells[r]![c]!))
    const text = f.rng.text(20)
    const x = cellStart(table, at[i]!, r, c) + k
    const res = await batch(f, id, [{ insertText: { location: { index: x }, text } }], writeControl(f, doc))
    if (wrongRevision) return f.equal(res.status, 400, 'a batch on an older requiredRevisionId')
    const cell = table.cells[r]!
    cell[c] = cell[c]!.slice(0, k) + text + cell[c]!.slice(k)
    shiftInsert(doc, x, text.length)
    return applied(f, id, res, `insert ${JSON.stringify(text)} into cell ${r},${c} at ${x}`)
  }
  const i = f.rng.pick(paragraphs(doc))
  const p = doc.body[i] as Para
  const k = f.rng.pick(cuts(p.text))
  const text = f.rng.chance(0.3) ? `${f.rng.text(15)}\n${f.rng.text(15)}` : f.rng.text(25)
  const x = at[i]! + k
  const res = await batch(f, id, [{ insertText: { location: { index: x }, text } }], writeControl(f, doc))
  if (!res.ok && res.status === 400 && wrongRevision) return
  const parts = (p.text.slice(0, k) + text + p.text.slice(k)).split('\n')
  doc.body.splice(i, 1, ...parts.map((t) => ({ t: 'p' as const, text: t, bullet: p.bullet })))
  shiftInsert(doc, x, text.length)
  return applied(f, id, res, `insert ${JSON.stringify(text)} at ${x}`)
}

/** Whether the last writeControl drawn named an older revision (the batch must then fail whole, 400). */
let wrongRevision = false
function writeControl(f: Fuzz, doc: Doc): docs_v1.Schema$WriteControl | undefined {
  wrongRevision = false
  if (!f.rng.chance(0.25)) return undefined
  if (doc.revs.length && f.rng.chance(0.4)) {
    wrongRevision = true
    return { requiredRevisionId: f.rng.pick(doc.revs) }
  }
  return { requiredRevisionId: doc.rev }
}

async function deleteRange(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  if (!picked) return create(f)
  const [id, doc] = picked
  const at = starts(doc.body)
  const kind = f.rng.int(3)
  if (kind === 0 && tables(doc).length) {
    // A whole table: the paragraph after it stays (a table is always followed by one).
    const i = f.rng.pick(tables(doc))
    const [a, b] = [at[i]!, at[i]! + elLen(doc.body[i]!)]
    const res = await batch(f, id, [{ deleteContentRange: { range: { startIndex: a, endIndex: b } } }])
    doc.body.splice(i, 1)
    shiftDelete(doc, a, b)
    return applied(f, id, res, `delete table [${a}, ${b})`)
  }
  if (kind === 1 && tables(doc).length) {
    const i = f.rng.pick(tables(doc))
    const table = doc.body[i] as Table
    const r = f.rng.int(table.cells.length)
    const c = f.rng.int(table.cells[r]!.length)
    const text = table.cells[r]![c]!
    const cs = cuts(text)
    if (cs.length < 2) return insertText(f)
    const u = f.rng.int(cs.length - 1)
    const v = u + 1 + f.rng.int(cs.length - 1 - u)
    const base = cellStart(table, at[i]!, r, c)
    const [a, b] = [base + cs[u]!, base + cs[v]!]
    const res = await batch(f, id, [{ deleteContentRange: { range: { startIndex: a, endIndex: b } } }])
    table.cells[r]![c] = text.slice(0, cs[u]!) + text.slice(cs[v]!)
    shiftDelete(doc, a, b)
    return applied(f, id, res, `delete [${a}, ${b}) in cell ${r},${c}`)
  }
  if (kind === 2 && tables(doc).length && f.rng.chance(0.3)) return aroundTable(f, id, doc)
  // Body paragraphs i..j with no table between: from an offset in i to an offset in j (the last newline stays).
  const ps = paragraphs(doc)
  const i = f.rng.pick(ps)
  let j = i
  while (f.rng.chance(0.4) && doc.body[j + 1]?.t === 'p') j++
  const [pi, pj] = [doc.body[i] as Para, doc.body[j] as Para]
  const u = f.rng.pick(cuts(pi.text))
  const cj = cuts(pj.text)
  const later = i === j ? cj.filter((c) => c > u) : cj
  if (!later.length) return insertText(f)
  const v = f.rng.pick(later)
  const [a, b] = [at[i]! + u, at[j]! + v]
  // Deleting the newline right before a table is refused; so is merging into it: not drawn.
  const res = await batch(f, id, [{ deleteContentRange: { range: { startIndex: a, endIndex: b } } }])
  const merged: Para = { t: 'p', text: pi.text.slice(0, u) + pj.text.slice(v), bullet: (i === j ? pi : pj).bullet }
  doc.body.splice(i, j - i + 1, merged)
  shiftDelete(doc, a, b)
  return applied(f, id, res, `delete [${a}, ${b}) over paragraphs ${i}..${j}`)
}

/**
 * Around a table: the newline right before it alone (its paragraph holding text) is refused, 400; a range from the
 * paragraph before it into the paragraph after it takes the whole table, and the two paragraphs merge.
 */
async function aroundTable(f: Fuzz, id: string, doc: Doc): Promise<void> {
  const at = starts(doc.body)
  const t = f.rng.pick(tables(doc))
  const [pi, pj] = [doc.body[t - 1] as Para, doc.body[t + 1] as Para]
  if (f.rng.chance(0.4) && pi.text.length) {
    const x = at[t]! - 1
    const res = await batch(f, id, [{ deleteContentRange: { range: { startIndex: x, endIndex: x + 1 } } }])
    return f.equal(res.status, 400, `deleting the newline before the table at ${at[t]}`)
  }
  const u = f.rng.pick(cuts(pi.text))
  const v = f.rng.pick(cuts(pj.text))
  const [a, b] = [at[t - 1]! + u, at[t + 1]! + v]
  const res = await batch(f, id, [{ deleteContentRange: { range: { startIndex: a, endIndex: b } } }])
  doc.body.splice(t - 1, 3, { t: 'p', text: pi.text.slice(0, u) + pj.text.slice(v), bullet: pj.bullet })
  shiftDelete(doc, a, b)
  return applied(f, id, res, `delete [${a}, ${b}) over the table at ${at[t]}`)
}

async function insertTable(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  if (!picked) return create(f)
  const [id, doc] = picked
  const plain = paragraphs(doc).filter((i) => !(doc.body[i] as Para).bullet)
  if (!plain.length || tables(doc).length >= 3) return insertText(f)
  const i = f.rng.pick(plain)
  const p = doc.body[i] as Para
  const k = f.rng.pick(cuts(p.text))
  const [rows, columns] = [1 + f.rng.int(3), 1 + f.rng.int(3)]
  const x = starts(doc.body)[i]! + k
  const res = await batch(f, id, [{ insertTable: { rows, columns, location: { index: x } } }])
  const table: Table = { t: 'table', cells: Array.from({ length: rows }, () => Array<string>(columns).fill('')) }
  const before: Para = { t: 'p', text: p.text.slice(0, k), bullet: false }
  doc.body.splice(i, 1, before, table, { t: 'p', text: p.text.slice(k), bullet: false })
  shiftInsert(doc, x, 1 + elLen(table))
  return applied(f, id, res, `insertTable ${rows}x${columns} at ${x}`)
}

async function tableRow(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  if (!picked || !tables(picked[1]).length) return insertTable(f)
  const [id, doc] = picked
  const i = f.rng.pick(tables(doc))
  const table = doc.body[i] as Table
  const t = starts(doc.body)[i]!
  const rowIndex = f.rng.int(table.cells.length)
  const cell = { tableStartLocation: { index: t }, rowIndex, columnIndex: 0 }
  let rowStart = t + 1
  for (let r = 0; r < rowIndex; r++) rowStart += rowLen(table.cells[r]!)
  if (table.cells.length > 1 && f.rng.chance(0.4)) {
    const res = await batch(f, id, [{ deleteTableRow: { tableCellLocation: cell } }])
    const len = rowLen(table.cells[rowIndex]!)
    table.cells.splice(rowIndex, 1)
    shiftDelete(doc, rowStart, rowStart + len)
    return applied(f, id, res, `deleteTableRow ${rowIndex} of the table at ${t}`)
  }
  const insertBelow = f.rng.chance(0.5)
  const res = await batch(f, id, [{ insertTableRow: { tableCellLocation: cell, insertBelow } }])
  const row = Array<string>(table.cells[0]!.length).fill('')
  const at = insertBelow ? rowStart + rowLen(table.cells[rowIndex]!) : rowStart
  table.cells.splice(insertBelow ? rowIndex + 1 : rowIndex, 0, row)
  shiftInsert(doc, at, rowLen(row))
  return applied(f, id, res, `insertTableRow ${insertBelow ? 'below' : 'above'} ${rowIndex} of the table at ${t}`)
}

/** A body range over consecutive paragraphs (no table inside): [start of i + u, start of j + v). */
function paragraphRange(f: Fuzz, doc: Doc): [number, number, number, number] | undefined {
  const at = starts(doc.body)
  const i = f.rng.pick(paragraphs(doc))
  let j = i
  while (f.rng.chance(0.4) && doc.body[j + 1]?.t === 'p') j++
  const u = f.rng.pick(cuts((doc.body[i] as Para).text))
  const ends = cuts((doc.body[j] as Para).text).map((c) => at[j]! + c + 1)
  const b = f.rng.pick(ends.filter((e) => e > at[i]! + u))
  return b === undefined ? undefined : [i, j, at[i]! + u, b]
}

async function namedRange(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  if (!picked) return create(f)
  const [id, doc] = picked
  if (doc.ranges.length && f.rng.chance(0.3)) {
    const r = f.rng.pick(doc.ranges)
    const byName = f.rng.chance(0.5)
    const res = await batch(f, id, [{ deleteNamedRange: byName ? { name: r.name } : { namedRangeId: r.id } }])
    doc.ranges = doc.ranges.filter((x) => x !== r)
    return applied(f, id, res, `deleteNamedRange ${r.name}`)
  }
  const range = paragraphRange(f, doc)
  if (!range) return insertText(f)
  const [, , a, b] = range
  const name = `range ${++model(f).n}`
  const res = await batch(f, id, [{ createNamedRange: { name, range: { startIndex: a, endIndex: b } } }])
  const rid = res.ok ? (res.data.replies?.[0]?.createNamedRange?.namedRangeId ?? '') : ''
  doc.ranges.push({ id: rid, name, start: a, end: b, sure: true })
  return applied(f, id, res, `createNamedRange [${a}, ${b})`)
}

async function bullets(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  if (!picked) return create(f)
  const [id, doc] = picked
  const range = paragraphRange(f, doc)
  if (!range) return insertText(f)
  const [i, j, a, b] = range
  const on = f.rng.chance(0.6)
  const req: docs_v1.Schema$Request = on
    ? { createParagraphBullets: { range: { startIndex: a, endIndex: b }, bulletPreset: 'BULLET_DISC_CIRCLE_SQUARE' } }
    : { deleteParagraphBullets: { range: { startIndex: a, endIndex: b } } }
  // Leading tabs become nesting levels (and go): the texts drawn hold none.
  const res = await batch(f, id, [req])
  for (let k = i; k <= j; k++) (doc.body[k] as Para).bullet = on
  return applied(f, id, res, `${on ? 'create' : 'delete'}ParagraphBullets [${a}, ${b})`)
}

type Seen = { t: string; start: number; end: number; text?: string; bullet?: boolean; cells?: string[][] }
const runs = (content: docs_v1.Schema$StructuralElement[] | undefined) =>
  (content ?? [])
    .flatMap((e) => e.paragraph?.elements ?? [])
    .map((r) => r.textRun?.content ?? '')
    .join('')

/** documents.get against the model: every body element, and the named ranges. */
async function compare(f: Fuzz, id: string): Promise<void> {
  const doc = model(f).docs[id]!
  const r = await f.google('documents.get (structure)', false, () => f.docs.documents.get({ documentId: id }))
  f.check(r.ok, () => `documents.get: ${r.status}`)
  if (!r.ok) return
  f.equal(r.data.revisionId, doc.rev, 'revisionId')
  const seen: Seen[] = (r.data.body?.content ?? []).slice(1).map((e) => {
    const span = { start: e.startIndex ?? 0, end: e.endIndex ?? 0 }
    if (e.table) {
      const cells = (e.table.tableRows ?? []).map((row) =>
        (row.tableCells ?? []).map((c) => runs(c.content).replace(/\n$/, '')),
      )
      return { t: 'table', ...span, cells }
    }
    return { t: 'p', ...span, text: runs([e]).replace(/\n$/, ''), bullet: Boolean(e.paragraph?.bullet) }
  })
  const at = starts(doc.body)
  const want: Seen[] = doc.body.map((e, i) => {
    const span = { start: at[i]!, end: at[i]! + elLen(e) }
    return e.t === 'table'
      ? { t: 'table', ...span, cells: e.cells }
      : { t: 'p', ...span, text: e.text, bullet: e.bullet }
  })
  f.equal(seen, want, `body of ${id}`)
  const ranges = Object.values(r.data.namedRanges ?? {}).flatMap((g) => g.namedRanges ?? [])
  const live = new Set(doc.ranges.map((x) => x.id))
  for (const x of ranges) f.check(live.has(x.namedRangeId!), () => `named range ${x.name} should be gone`)
  for (const x of doc.ranges.filter((d) => d.sure)) {
    const got = ranges.find((g) => g.namedRangeId === x.id)
    f.equal(
      got?.ranges?.map((g) => [g.startIndex ?? 0, g.endIndex]),
      [[x.start, x.end]],
      `named range ${x.name}`,
    )
  }
}

async function check(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  if (!picked) return create(f)
  return compare(f, picked[0])
}

export const docStructOps: Op[] = [
  { name: 'docs2.create', weight: 1, run: create },
  { name: 'docs2.insertText', weight: 4, run: insertText },
  { name: 'docs2.delete', weight: 3, run: deleteRange },
  { name: 'docs2.insertTable', weight: 1, run: insertTable },
  { name: 'docs2.tableRow', weight: 2, run: tableRow },
  { name: 'docs2.namedRange', weight: 2, run: namedRange },
  { name: 'docs2.bullets', weight: 2, run: bullets },
  { name: 'docs2.check', weight: 1, run: check },
]
