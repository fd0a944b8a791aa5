import type { Fuzz, Op } from './engine.ts'

// Drive (Ann's My Drive): nested folders and files created, renamed, moved (cycles refused), trashed, untrashed,
// copied and deleted; checked by get and by paged `'<folder>' in parents` listings.

const FOLDER = 'application/vnd.google-apps.folder'
type File = Fuzz['model']['drive']['files'][string]
const files = (f: Fuzz) => f.model.drive.files
/** Notes a file written since the changes feed's page token (`maybe`: a change Drive may or may not list). */
export const touched = (f: Fuzz, id: string, maybe = false) => {
  const feed = f.model.driveChanges
  const list = maybe ? feed.maybe : feed.changed
  if (feed.token && !list.includes(id)) list.push(id)
}
const folders = (f: Fuzz) => [f.model.drive.root, ...Object.keys(files(f)).filter((id) => files(f)[id]!.folder)]

/** Trashed itself or below a trashed folder. */
export function trashed(f: Fuzz, id: string): boolean {
  for (let at: File | undefined = files(f)[id]; at; at = files(f)[at.parent]) if (at.trashed) return true
  return false
}
/** With the Drive families: a new document is a file at the top of Ann's My Drive (the Docs families register it). */
export function docCreated(f: Fuzz, id: string, title: string): void {
  if (!f.model.drive.root) return
  files(f)[id] = { name: title, parent: f.model.drive.root, folder: false, trashed: false }
  touched(f, id)
}

/** One of a Docs family's documents at random, leaving out those Drive ops (when they run) trashed or deleted. */
export function pickLiveDoc<T>(f: Fuzz, docs: Record<string, T>): [string, T] | undefined {
  const ids = Object.keys(docs).filter((id) => !f.model.drive.root || (files(f)[id] && !trashed(f, id)))
  if (!ids.length) return undefined
  const id = f.rng.pick(ids)
  return [id, docs[id]!]
}
const within = (f: Fuzz, id: string, ancestor: string): boolean => {
  for (let at: string | undefined = id; at; at = files(f)[at]?.parent) if (at === ancestor) return true
  return false
}

export async function driveSetup(f: Fuzz): Promise<void> {
  const r = await f.google('files.get root', false, () => f.drive.files.get({ fileId: 'root', fields: 'id' }))
  f.model.drive.root = (r.data as { id: string }).id
}

async function create(f: Fuzz): Promise<void> {
  const parent = f.rng.pick(folders(f).filter((id) => id === f.model.drive.root || !trashed(f, id)))
  const folder = f.rng.chance(0.4)
  const name = f.rng.text(f.rng.chance(0.1) ? 200 : 40)
  const requestBody = { name, parents: [parent], ...(folder ? { mimeType: FOLDER } : {}) }
  const media = !folder && f.rng.chance(0.5) ? { mimeType: 'text/plain', body: f.rng.text(100) } : undefined
  const r = await f.google('files.create', true, () =>
    f.drive.files.create(
      { requestBody, ...(media ? { media } : {}), fields: 'id,name,parents,mimeType' },
      { rootUrl: f.server.url },
    ),
  )
  f.check(r.ok, () => `files.create: ${r.status} ${JSON.stringify(r.data)}`)
  if (!r.ok) return
  f.equal([r.data.name, r.data.parents], [name, [parent]], 'created name and parents')
  touched(f, r.data.id!)
  files(f)[r.data.id!] = { name, parent, folder, trashed: false }
}

async function rename(f: Fuzz): Promise<void> {
  const ids = Object.keys(files(f))
  if (!ids.length) return create(f)
  const fileId = f.rng.pick(ids)
  const name = f.rng.text(60)
  const r = await f.google('files.update name', true, () =>
    f.drive.files.update({ fileId, requestBody: { name }, fields: 'id,name' }),
  )
  f.check(r.ok, () => `files.update: ${r.status}`)
  if (r.ok) files(f)[fileId]!.name = name
  if (r.ok) touched(f, fileId)
}

// Moves and trash changes stay out of the trash: what Drive does to an item moved into or out of a trashed folder,
// or trashed below one, is not documented well enough to model (docs/decisions/0442).
const inTrashedFolder = (f: Fuzz, id: string) => trashed(f, files(f)[id]!.parent)
const untouched = (f: Fuzz) => Object.keys(files(f)).filter((id) => !trashed(f, id))

async function move(f: Fuzz): Promise<void> {
  const ids = untouched(f)
  if (!ids.length) return create(f)
  const fileId = f.rng.pick(ids)
  const file = files(f)[fileId]!
  const target = f.rng.pick(folders(f).filter((id) => !trashed(f, id)))
  const r = await f.google('files.update move', true, () =>
    f.drive.files.update({ fileId, addParents: target, removeParents: file.parent, fields: 'id,parents' }),
  )
  if (within(f, target, fileId)) return f.check(!r.ok && r.status < 500, 'moving a folder into itself is refused')
  f.check(r.ok, () => `files.update move: ${r.status} ${JSON.stringify(r.data)}`)
  if (!r.ok) return
  f.equal(r.data.parents, [target], 'parents after move')
  touched(f, fileId)
  // What a moved folder holds may be listed too (its audience may change with the move: docs/decisions/0445).
  for (const id of Object.keys(files(f))) if (id !== fileId && within(f, id, fileId)) touched(f, id, true)
  file.parent = target
}

async function trash(f: Fuzz): Promise<void> {
  const ids = Object.keys(files(f)).filter((id) => !inTrashedFolder(f, id))
  if (!ids.length) return create(f)
  const fileId = f.rng.pick(ids)
  const file = files(f)[fileId]!
  const value = !file.trashed
  const r = await f.google('files.update trashed', true, () =>
    f.drive.files.update({ fileId, requestBody: { trashed: value }, fields: 'id,trashed,explicitlyTrashed' }),
  )
  f.check(r.ok, () => `files.update trashed: ${r.status}`)
  if (!r.ok) return
  file.trashed = value
  touched(f, fileId)
  for (const id of Object.keys(files(f))) if (id !== fileId && within(f, id, fileId)) touched(f, id, true)
  f.equal([r.data.trashed, r.data.explicitlyTrashed], [trashed(f, fileId), value], 'trashed flags')
}

async function copy(f: Fuzz): Promise<void> {
  const ids = Object.keys(files(f)).filter((id) => !files(f)[id]!.folder && !trashed(f, id))
  if (!ids.length) return create(f)
  const fileId = f.rng.pick(ids)
  const r = await f.google('files.copy', true, () => f.drive.files.copy({ fileId, fields: 'id,name,parents' }))
  f.check(r.ok, () => `files.copy: ${r.status} ${JSON.stringify(r.data)}`)
  if (!r.ok) return
  files(f)[r.data.id!] = { name: r.data.name!, parent: r.data.parents![0]!, folder: false, trashed: false }
  touched(f, r.data.id!)
}

async function remove(f: Fuzz): Promise<void> {
  const ids = Object.keys(files(f))
  if (!ids.length) return create(f)
  const fileId = f.rng.pick(ids)
  const r = await f.google(`files.delete ${fileId}`, true, () => f.drive.files.delete({ fileId }))
  f.check(r.ok, () => `files.delete: ${r.status}`)
  // Deleting a folder deletes everything below it.
  // Each deleted file reaches the changes feed as a removal.
  for (const id of Object.keys(files(f)).filter((id) => within(f, id, fileId))) {
    touched(f, id)
    delete files(f)[id]
  }
}

async function get(f: Fuzz): Promise<void> {
  const ids = Object.keys(files(f))
  if (!ids.length) return create(f)
  const fileId = f.rng.pick(ids)
  const r = await f.google('files.get', false, () =>
    f.drive.files.get({ fileId, fields: 'id,name,parents,trashed,explicitlyTrashed,mimeType' }),
  )
  f.check(r.ok, () => `files.get: ${r.status}`)
  if (!r.ok) return
  const m = files(f)[fileId]!
  f.equal(
    [r.data.name, r.data.parents, r.data.trashed, r.data.explicitlyTrashed],
    [m.name, [m.parent], trashed(f, fileId), m.trashed],
    `files.get ${fileId}`,
  )
}

async function list(f: Fuzz): Promise<void> {
  const parent = f.rng.pick(folders(f))
  const inTrash = f.rng.chance(0.3)
  const q = `'${parent}' in parents and trashed = ${inTrash}`
  const seen: string[] = []
  let pageToken: string | undefined
  for (let i = 0; i < 500; i++) {
    const pageSize = 1 + f.rng.int(4)
    const r = await f.google('files.list', false, () =>
      f.drive.files.list({ q, pageSize, pageToken, fields: 'nextPageToken,files(id)', orderBy: 'name' }),
    )
    f.check(r.ok, () => `files.list: ${r.status} ${JSON.stringify(r.data)}`)
    if (!r.ok) return
    seen.push(...(r.data.files ?? []).map((x) => x.id!))
    pageToken = r.data.nextPageToken ?? undefined
    if (!pageToken) break
  }
  f.equal(seen.length, new Set(seen).size, `${q} visits each file once`)
  const want = Object.keys(files(f)).filter((id) => files(f)[id]!.parent === parent && trashed(f, id) === inTrash)
  f.equal([...seen].sort(), want.sort(), q)
}

/** `name = '…'` (quotes and backslashes escaped) finds exactly the files of that name, after renames too. */
async function byName(f: Fuzz): Promise<void> {
  const ids = Object.keys(files(f))
  if (!ids.length) return create(f)
  const name = files(f)[f.rng.pick(ids)]!.name
  const q = `name = '${name.replace(/[\\']/g, (c) => `\\${c}`)}' and trashed = false`
  const r = await f.google('files.list name', false, () =>
    f.drive.files.list({ q, pageSize: 100, fields: 'nextPageToken,files(id)' }),
  )
  f.check(r.ok, () => `files.list ${q}: ${r.status} ${JSON.stringify(r.data)}`)
  if (!r.ok) return
  const want = ids.filter((id) => files(f)[id]!.name === name && !trashed(f, id))
  f.equal((r.data.files ?? []).map((x) => x.id!).sort(), want.sort(), q)
}

/** The changes feed from a start page token lists exactly the files written since (removed ones as removed). */
async function changes(f: Fuzz): Promise<void> {
  const feed = f.model.driveChanges
  if (!feed.token) {
    const r = await f.google('changes.getStartPageToken', false, () => f.drive.changes.getStartPageToken({}))
    if (!r.ok) return f.fail('getStartPageToken failed')
    feed.token = r.data.startPageToken!
    return
  }
  const seen: { fileId?: string | null; removed?: boolean | null }[] = []
  let pageToken = feed.token
  let next: string | undefined
  for (let i = 0; i < 500 && !next; i++) {
    const pageSize = 1 + f.rng.int(4)
    const r = await f.google('changes.list', false, () =>
      f.drive.changes.list({ pageToken, pageSize, fields: 'nextPageToken,newStartPageToken,changes(fileId,removed)' }),
    )
    f.check(r.ok, () => `changes.list: ${r.status} ${JSON.stringify(r.data)}`)
    if (!r.ok) return
    seen.push(...(r.data.changes ?? []))
    next = r.data.newStartPageToken ?? undefined
    pageToken = r.data.nextPageToken!
    if (!next) f.check(pageToken, 'a changes page without nextPageToken ends with newStartPageToken')
  }
  const ids = seen.map((c) => c.fileId!)
  f.equal(ids.length, new Set(ids).size, 'changes lists each file once')
  const missing = feed.changed.filter((id) => !ids.includes(id))
  const extra = ids.filter((id) => !feed.changed.includes(id) && !feed.maybe.includes(id))
  f.equal({ missing, extra }, { missing: [], extra: [] }, 'files changed since the page token')
  for (const c of seen) f.equal(!!c.removed, !files(f)[c.fileId!], `change of ${c.fileId} removed`)
  Object.assign(feed, { token: next, changed: [], maybe: [] })
}

export const driveOps: Op[] = [
  { name: 'drive.create', weight: 4, run: create },
  { name: 'drive.rename', weight: 2, run: rename },
  { name: 'drive.move', weight: 3, run: move },
  { name: 'drive.trash', weight: 2, run: trash },
  { name: 'drive.copy', weight: 1, run: copy },
  { name: 'drive.delete', weight: 1, run: remove },
  { name: 'drive.get', weight: 2, run: get },
  { name: 'drive.list', weight: 3, run: list },
  { name: 'drive.byName', weight: 2, run: byName },
  { name: 'drive.changes', weight: 2, run: changes },
]
