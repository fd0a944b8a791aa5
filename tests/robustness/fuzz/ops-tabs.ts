import type { docs_v1 } from 'googleapis'
import type { Fuzz, Op } from './engine.ts'
import { docsBatch } from './ops-docs2.ts'
import { docCreated, pickLiveDoc, touched } from './ops-drive.ts'

// Docs tabs (docs/decisions/0456): tabs added at any index under any parent (nesting past three levels and an index
// past the siblings refused), deleted with their children (the only top-level tab refused), moved among their
// siblings, retitled; text inserted and deleted in any tab by `tabId`, a deleted tab's id refused. After each write
// `documents.get` with `includeTabsContent` must show the model's tree (ids, titles, indexes, parents, nesting levels,
// texts), and without it the first tab's body and no `tabs`.

type Tab = { id: string; title: string; text: string; children: Tab[] }
type Doc = { tabs: Tab[]; gone: string[] }
export type DocTabsModel = { docs: Record<string, Doc>; n: number }

const model = (f: Fuzz) => f.model.docTabs

/** UTF-16 offsets between code points of `s`. */
function cuts(s: string): number[] {
  const out = [0]
  let at = 0
  for (const ch of s) out.push((at += ch.length))
  return out
}
/** Every tab with its siblings list and nesting level, depth first. */
function walk(tabs: Tab[], level = 0, out: { tab: Tab; siblings: Tab[]; level: number }[] = []) {
  for (const tab of tabs) (out.push({ tab, siblings: tabs, level }), walk(tab.children, level + 1, out))
  return out
}

const batch = (f: Fuzz, id: string, requests: docs_v1.Schema$Request[]) => docsBatch(f, 'tabs', id, requests)
async function applied(f: Fuzz, id: string, r: Awaited<ReturnType<typeof batch>>, what: string) {
  f.check(r.ok, () => `${what}: ${r.status} ${JSON.stringify(r.data).slice(0, 400)}`)
  if (f.model.drive.root) touched(f, id)
  await compare(f, id)
}
async function refused(f: Fuzz, id: string, requests: docs_v1.Schema$Request[], what: string) {
  const r = await batch(f, id, requests)
  f.equal(r.status, 400, what)
}

async function create(f: Fuzz): Promise<void> {
  const title = `Tabs ${++model(f).n}`
  const r = await f.google('documents.create (tabs)', true, () => f.docs.documents.create({ requestBody: { title } }))
  f.check(r.ok, () => `documents.create: ${r.status}`)
  const id = r.data.documentId!
  const g = await f.google('documents.get (tabs)', false, () =>
    f.docs.documents.get({ documentId: id, includeTabsContent: true }),
  )
  f.check(g.ok, () => `documents.get: ${g.status}`)
  const first = g.data.tabs?.[0]?.tabProperties
  f.check(first?.tabId && g.data.tabs?.length === 1, () => `a new document's tabs: ${JSON.stringify(g.data.tabs)}`)
  model(f).docs[id] = { tabs: [{ id: first!.tabId!, title: first!.title ?? '', text: '', children: [] }], gone: [] }
  docCreated(f, id, title)
}

const pickDoc = (f: Fuzz) => pickLiveDoc(f, model(f).docs)

async function addTab(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  if (!picked) return create(f)
  const [id, doc] = picked
  const all = walk(doc.tabs)
  const parent = f.rng.chance(0.5) ? f.rng.pick(all) : undefined
  const siblings = parent ? parent.tab.children : doc.tabs
  const past = f.rng.chance(0.1)
  const index = past ? siblings.length + 1 : f.rng.int(siblings.length + 1)
  const title = f.rng.chance(0.7) ? f.rng.text(20) : undefined
  const tabProperties = { parentTabId: parent?.tab.id, index, title }
  if (past || (parent && parent.level >= 2))
    return refused(f, id, [{ addDocumentTab: { tabProperties } }], `addDocumentTab ${JSON.stringify(tabProperties)}`)
  const r = await batch(f, id, [{ addDocumentTab: { tabProperties } }])
  const got = r.ok ? r.data.replies?.[0]?.addDocumentTab?.tabProperties : undefined
  if (title !== undefined) f.equal(got?.title, title, 'the new tab title')
  siblings.splice(index, 0, { id: got?.tabId ?? '', title: got?.title ?? '', text: '', children: [] })
  return applied(f, id, r, `addDocumentTab ${JSON.stringify(tabProperties)}`)
}

async function deleteTab(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  if (!picked) return create(f)
  const [id, doc] = picked
  const { tab, siblings } = f.rng.pick(walk(doc.tabs))
  if (siblings === doc.tabs && doc.tabs.length === 1)
    return refused(f, id, [{ deleteTab: { tabId: tab.id } }], 'deleting the only top-level tab')
  const r = await batch(f, id, [{ deleteTab: { tabId: tab.id } }])
  siblings.splice(siblings.indexOf(tab), 1)
  doc.gone.push(...walk([tab]).map((x) => x.tab.id))
  return applied(f, id, r, `deleteTab ${tab.id}`)
}

async function moveTab(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  if (!picked) return create(f)
  const [id, doc] = picked
  const { tab, siblings } = f.rng.pick(walk(doc.tabs))
  const index = f.rng.int(siblings.length)
  const retitle = f.rng.chance(0.4)
  const tabProperties = { tabId: tab.id, index, ...(retitle ? { title: f.rng.text(20) } : {}) }
  const r = await batch(f, id, [{ updateDocumentTabProperties: { tabProperties, fields: retitle ? '*' : 'index' } }])
  siblings.splice(siblings.indexOf(tab), 1)
  siblings.splice(index, 0, tab)
  if (retitle) tab.title = tabProperties.title!
  return applied(f, id, r, `move ${tab.id} to ${index}`)
}

async function editText(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  if (!picked) return create(f)
  const [id, doc] = picked
  if (doc.gone.length && f.rng.chance(0.1)) {
    const tabId = f.rng.pick(doc.gone)
    return refused(f, id, [{ insertText: { location: { tabId, index: 1 }, text: 'x' } }], 'a deleted tab')
  }
  const { tab } = f.rng.pick(walk(doc.tabs))
  const cs = cuts(tab.text)
  if (cs.length > 1 && f.rng.chance(0.4)) {
    const u = f.rng.int(cs.length - 1)
    const v = u + 1 + f.rng.int(cs.length - 1 - u)
    const range = { tabId: tab.id, startIndex: 1 + cs[u]!, endIndex: 1 + cs[v]! }
    const r = await batch(f, id, [{ deleteContentRange: { range } }])
    tab.text = tab.text.slice(0, cs[u]) + tab.text.slice(cs[v])
    return applied(f, id, r, `delete ${JSON.stringify(range)}`)
  }
  const text = f.rng.chance(0.2) ? `${f.rng.text(10)}\n${f.rng.text(10)}` : f.rng.text(20)
  const atEnd = f.rng.chance(0.3)
  const k = atEnd ? tab.text.length : f.rng.pick(cs)
  const req = atEnd
    ? { insertText: { endOfSegmentLocation: { tabId: tab.id }, text } }
    : { insertText: { location: { tabId: tab.id, index: 1 + k }, text } }
  const r = await batch(f, id, [req])
  tab.text = tab.text.slice(0, k) + text + tab.text.slice(k)
  return applied(f, id, r, `insert ${JSON.stringify(text)} at ${1 + k} of ${tab.id}`)
}

type Seen = { id: string; title: string; index: number; parent?: string; level?: number; text: string; kids: Seen[] }
const bodyText = (content: docs_v1.Schema$StructuralElement[] | undefined) =>
  (content ?? [])
    .flatMap((e) => e.paragraph?.elements ?? [])
    .map((r) => r.textRun?.content ?? '')
    .join('')
    .replace(/\n$/, '')

function seen(tabs: docs_v1.Schema$Tab[]): Seen[] {
  return tabs.map((t) => {
    const p = t.tabProperties ?? {}
    return {
      id: p.tabId ?? '',
      title: p.title ?? '',
      index: p.index ?? 0,
      ...(p.parentTabId ? { parent: p.parentTabId } : {}),
      ...(p.nestingLevel ? { level: p.nestingLevel } : {}),
      text: bodyText(t.documentTab?.body?.content),
      kids: seen(t.childTabs ?? []),
    }
  })
}
function want(tabs: Tab[], parent?: Tab, level = 0): Seen[] {
  return tabs.map((t, index) => ({
    id: t.id,
    title: t.title,
    index,
    ...(parent ? { parent: parent.id } : {}),
    ...(level ? { level } : {}),
    text: t.text,
    kids: want(t.children, t, level + 1),
  }))
}

async function compare(f: Fuzz, id: string): Promise<void> {
  const doc = model(f).docs[id]!
  const r = await f.google('documents.get (tabs)', false, () =>
    f.docs.documents.get({ documentId: id, includeTabsContent: true }),
  )
  f.check(r.ok, () => `documents.get: ${r.status}`)
  f.check(r.data.body === undefined, 'with includeTabsContent the legacy body is absent')
  f.equal(seen(r.data.tabs ?? []), want(doc.tabs), `tabs of ${id}`)
  const plain = await f.google('documents.get (first tab)', false, () => f.docs.documents.get({ documentId: id }))
  f.check(plain.ok && plain.data.tabs === undefined, 'without includeTabsContent no tabs')
  f.equal(bodyText(plain.data.body?.content), doc.tabs[0]!.text, 'the legacy body is the first tab')
}

async function check(f: Fuzz): Promise<void> {
  const picked = pickDoc(f)
  return picked ? compare(f, picked[0]) : create(f)
}

export const docTabsOps: Op[] = [
  { name: 'tabs.create', weight: 1, run: create },
  { name: 'tabs.add', weight: 3, run: addTab },
  { name: 'tabs.delete', weight: 1, run: deleteTab },
  { name: 'tabs.move', weight: 2, run: moveTab },
  { name: 'tabs.text', weight: 4, run: editText },
  { name: 'tabs.check', weight: 1, run: check },
]
