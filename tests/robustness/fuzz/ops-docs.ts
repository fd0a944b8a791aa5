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
    const insert = f.rng.text(60)
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

export const docsOps: Op[] = [
  { name: 'docs.create', weight: 2, run: create },
  { name: 'docs.edit', weight: 4, run: edit },
  { name: 'docs.get', weight: 3, run: get },
]
