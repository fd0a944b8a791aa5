import type { docs_v1 } from 'googleapis'
import type { Fuzz, Op } from './engine.ts'
import { touched, trashed } from './ops-drive.ts'

// Docs: documents created, text inserted and deleted at random UTF-16 indexes (code point boundaries, so emoji and
// accents are kept whole), checked against the body's text runs; a new document is a Drive file in My Drive.

const docs = (f: Fuzz) => f.model.docs
/** Documents still reachable: Drive ops (when they run) may have trashed or deleted one. */
const usable = (f: Fuzz) =>
  Object.keys(docs(f)).filter((id) => !f.model.drive.root || (f.model.drive.files[id] && !trashed(f, id)))

/** UTF-16 offsets between code points of `s`. */
function boundaries(s: string): number[] {
  const out = [0]
  let at = 0
  for (const ch of s) out.push((at += ch.length))
  return out
}

function textOf(doc: docs_v1.Schema$Document): string {
  return (doc.body?.content ?? [])
    .flatMap((el) => el.paragraph?.elements ?? [])
    .map((e) => e.textRun?.content ?? '')
    .join('')
}

async function create(f: Fuzz): Promise<void> {
  const title = f.rng.text(80)
  const r = await f.google('documents.create', true, () => f.docs.documents.create({ requestBody: { title } }))
  f.check(r.ok, () => `documents.create: ${r.status} ${JSON.stringify(r.data)}`)
  if (!r.ok) return
  f.equal(r.data.title, title, 'created title')
  docs(f)[r.data.documentId!] = ''
  if (f.model.drive.root) {
    f.model.drive.files[r.data.documentId!] = { name: title, parent: f.model.drive.root, folder: false, trashed: false }
    touched(f, r.data.documentId!)
  }
}

async function edit(f: Fuzz): Promise<void> {
  const ids = usable(f)
  if (!ids.length) return create(f)
  const documentId = f.rng.pick(ids)
  const text = docs(f)[documentId]!
  const cuts = boundaries(text)
  let requests: docs_v1.Schema$Request[]
  let next: string
  if (text.length && f.rng.chance(0.4)) {
    const a = f.rng.int(cuts.length - 1)
    const b = a + 1 + f.rng.int(cuts.length - 1 - a)
    const [from, to] = [cuts[a]!, cuts[b]!]
    requests = [{ deleteContentRange: { range: { startIndex: from + 1, endIndex: to + 1 } } }]
    next = text.slice(0, from) + text.slice(to)
  } else {
    const at = f.rng.pick(cuts)
    // With docsMore, sometimes several paragraphs: the text model holds the newlines, indexes count them.
    const paragraphs = f.options.has('paragraphs') && f.rng.chance(0.3)
    const insert = paragraphs ? `${f.rng.text(30)}\n${f.rng.text(30)}` : f.rng.text(60)
    requests = [{ insertText: { location: { index: at + 1 }, text: insert } }]
    next = text.slice(0, at) + insert + text.slice(at)
  }
  const r = await f.google('documents.batchUpdate', true, () =>
    f.docs.documents.batchUpdate({ documentId, requestBody: { requests } }),
  )
  f.check(r.ok, () => `batchUpdate ${JSON.stringify(requests)} on ${JSON.stringify(text)}: ${JSON.stringify(r.data)}`)
  if (r.ok) docs(f)[documentId] = next
  if (r.ok && f.model.drive.root) touched(f, documentId)
}

async function get(f: Fuzz): Promise<void> {
  const ids = usable(f)
  if (!ids.length) return create(f)
  const documentId = f.rng.pick(ids)
  const r = await f.google('documents.get', false, () => f.docs.documents.get({ documentId }))
  f.check(r.ok, () => `documents.get: ${r.status}`)
  if (!r.ok) return
  f.equal(textOf(r.data), docs(f)[documentId] + '\n', `text of ${documentId}`)
  const last = r.data.body?.content?.at(-1)
  f.equal(last?.endIndex, docs(f)[documentId]!.length + 2, 'body end index')
}

/** replaceAllText (case kept): every occurrence replaced, the count answered. */
async function replaceAll(f: Fuzz): Promise<void> {
  const ids = usable(f).filter((id) => docs(f)[id]!.length)
  if (!ids.length) return edit(f)
  const documentId = f.rng.pick(ids)
  const text = docs(f)[documentId]!
  const cuts = boundaries(text)
  const a = f.rng.int(cuts.length - 1)
  const find = text.slice(cuts[a]!, cuts[Math.min(cuts.length - 1, a + 1 + f.rng.int(3))]!)
  const replace = f.rng.chance(0.3) ? '' : f.rng.text(10)
  if (find.includes('\n') || replace.includes('\n')) return get(f)
  const requests = [{ replaceAllText: { containsText: { text: find, matchCase: true }, replaceText: replace } }]
  const r = await f.google('documents.batchUpdate replaceAllText', true, () =>
    f.docs.documents.batchUpdate({ documentId, requestBody: { requests } }),
  )
  f.check(r.ok, () => `replaceAllText ${JSON.stringify(find)}: ${r.status} ${JSON.stringify(r.data)}`)
  const count = text.split(find).length - 1
  f.equal(r.data.replies?.[0]?.replaceAllText?.occurrencesChanged ?? 0, count, `occurrences of ${JSON.stringify(find)}`)
  docs(f)[documentId] = text.split(find).join(replace)
  if (f.model.drive.root) touched(f, documentId)
}

/** A batch whose last request is out of range fails whole: earlier requests are not kept (checked by the engine). */
async function badBatch(f: Fuzz): Promise<void> {
  const ids = usable(f)
  if (!ids.length) return create(f)
  const documentId = f.rng.pick(ids)
  // Past the end even after the first request's insert (later requests see the earlier ones' effects).
  const past = docs(f)[documentId]!.length + 100 + f.rng.int(5)
  const requests: docs_v1.Schema$Request[] = [
    { insertText: { location: { index: 1 }, text: f.rng.text(20) } },
    f.rng.chance(0.5)
      ? { deleteContentRange: { range: { startIndex: 1, endIndex: past } } }
      : { insertText: { location: { index: past }, text: 'x' } },
  ]
  const r = await f.google('documents.batchUpdate out of range', true, () =>
    f.docs.documents.batchUpdate({ documentId, requestBody: { requests } }),
  )
  f.equal(r.status, 400, 'an out-of-range request fails its batch')
}

/** Kept apart from docsOps so that the fixed seeds of sequences.test.ts draw the same runs as before (0445). */
export const docsMoreOps: Op[] = [
  { name: 'docs.replaceAll', weight: 2, run: replaceAll },
  { name: 'docs.badBatch', weight: 1, run: badBatch },
]

export const docsOps: Op[] = [
  { name: 'docs.create', weight: 2, run: create },
  { name: 'docs.edit', weight: 4, run: edit },
  { name: 'docs.get', weight: 3, run: get },
]
