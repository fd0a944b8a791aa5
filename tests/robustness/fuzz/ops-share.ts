import type { Fuzz, Op } from './engine.ts'
import { touched, trashed } from './ops-drive.ts'

// Drive sharing between two users: Ann shares her files and folders with Ben (reader, commenter, writer) or with
// anyone with the link, changes roles and revokes; Ben reads (files.get: 404 without access, capabilities by role),
// renames where he may write (403 where he may not), lists `sharedWithMe` and shared folders, and follows his own
// changes feed (docs/decisions/0445). Access is inherited from every folder above a file.

type Grant = { id: string; role: string }
type Access = 'user' | 'link' | false
const files = (f: Fuzz) => f.model.drive.files
const RANK = ['reader', 'commenter', 'writer']
const best = (a: string | undefined, b: string | undefined) =>
  !a ? b : !b ? a : RANK.indexOf(a) >= RANK.indexOf(b) ? a : b

/** Ben's role on a file (through the file or any folder above it) and how he has it. */
function access(f: Fuzz, id: string): { role?: string; how: Access } {
  let role: string | undefined
  let user = false
  for (let at: string | undefined = id; at && files(f)[at]; at = files(f)[at]!.parent) {
    const s = f.model.shares[at]
    if (s?.ben) user = true
    role = best(role, best(s?.ben?.role, s?.anyone?.role))
  }
  return { role, how: role ? (user ? 'user' : 'link') : false }
}

/** What Ben's changes feed compares: his access (by a grant of his own) and what he sees of the file. */
function view(f: Fuzz, id: string): string | undefined {
  const a = access(f, id)
  if (a.how === 'link') return undefined
  const m = files(f)[id]
  // A new role inherited from a folder may or may not list the files below (not checked).
  return JSON.stringify(a.how && m ? [m.name, trashed(f, id)] : false)
}
const views = (f: Fuzz) => Object.fromEntries(Object.keys(files(f)).map((id) => [id, view(f, id) ?? 'link']))

/** Ann's writes to sharing: the file itself changes; what is below a shared folder may be listed too. */
function changedForAnn(f: Fuzz, id: string): void {
  touched(f, id)
  for (const other of Object.keys(files(f))) if (other !== id && below(f, other, id)) touched(f, other, true)
}
const below = (f: Fuzz, id: string, ancestor: string): boolean => {
  for (let at: string | undefined = files(f)[id]?.parent; at; at = files(f)[at]?.parent)
    if (at === ancestor) return true
  return false
}

async function grant(f: Fuzz): Promise<void> {
  const ids = Object.keys(files(f))
  if (!ids.length) return
  const fileId = f.rng.pick(ids)
  const anyone = f.rng.chance(0.3)
  const role = anyone ? f.rng.pick(['reader', 'writer']) : f.rng.pick(RANK)
  const requestBody = anyone ? { type: 'anyone', role } : { type: 'user', role, emailAddress: 'ben@example.com' }
  const r = await f.google(`permissions.create ${fileId}`, true, () =>
    f.drive.permissions.create({ fileId, requestBody, sendNotificationEmail: false, fields: 'id,type,role' }),
  )
  f.check(r.ok, () => `permissions.create: ${r.status} ${JSON.stringify(r.data)}`)
  if (!r.ok) return
  f.equal([r.data.type, r.data.role], [requestBody.type, role], 'created permission')
  const s = (f.model.shares[fileId] ??= {})
  s[anyone ? 'anyone' : 'ben'] = { id: r.data.id!, role }
  changedForAnn(f, fileId)
}

async function revoke(f: Fuzz): Promise<void> {
  const held = Object.entries(f.model.shares).flatMap(([id, s]) =>
    files(f)[id] ? (['ben', 'anyone'] as const).filter((k) => s[k]).map((k) => [id, k] as const) : [],
  )
  if (!held.length) return grant(f)
  const [fileId, who] = f.rng.pick(held)
  const g = f.model.shares[fileId]![who]!
  const change = f.rng.chance(0.4)
  if (change) {
    const role = f.rng.pick(RANK.filter((x) => x !== g.role && (who === 'ben' || x !== 'commenter')))
    const r = await f.google(`permissions.update ${fileId}`, true, () =>
      f.drive.permissions.update({ fileId, permissionId: g.id, requestBody: { role }, fields: 'id,role' }),
    )
    f.check(r.ok, () => `permissions.update: ${r.status} ${JSON.stringify(r.data)}`)
    f.equal([r.data.id, r.data.role], [g.id, role], 'updated permission')
    g.role = role
  } else {
    const r = await f.google(`permissions.delete ${fileId}`, true, () =>
      f.drive.permissions.delete({ fileId, permissionId: g.id }),
    )
    f.check(r.ok, () => `permissions.delete: ${r.status} ${JSON.stringify(r.data)}`)
    delete f.model.shares[fileId]![who]
  }
  changedForAnn(f, fileId)
}

/** Ann's permissions.list of a file: herself as owner, and the grants the model holds on the file itself. */
async function list(f: Fuzz): Promise<void> {
  const ids = Object.keys(f.model.shares).filter((id) => files(f)[id])
  if (!ids.length) return grant(f)
  const fileId = f.rng.pick(ids)
  const r = await f.google('permissions.list', false, () =>
    f.drive.permissions.list({ fileId, fields: 'permissions(id,type,role,emailAddress)' }),
  )
  f.check(r.ok, () => `permissions.list: ${r.status}`)
  const got = (r.data.permissions ?? []).filter((p) => p.role !== 'owner').map((p) => `${p.id}:${p.type}:${p.role}`)
  const s = f.model.shares[fileId]!
  const want = [
    ...(s.ben ? [`${s.ben.id}:user:${s.ben.role}`] : []),
    ...(s.anyone ? [`${s.anyone.id}:anyone:${s.anyone.role}`] : []),
  ]
  f.equal(got.sort(), want.sort(), `permissions of ${fileId} (inherited ones are not listed in My Drive)`)
}

async function benGet(f: Fuzz): Promise<void> {
  const ids = Object.keys(files(f))
  if (!ids.length) return
  const fileId = f.rng.pick(ids)
  const a = access(f, fileId)
  const r = await f.google('ben files.get', false, () =>
    f.ben.drive.files.get({ fileId, fields: 'id,name,trashed,capabilities(canEdit,canComment,canShare)' }),
  )
  if (!a.role) return f.equal(r.status, 404, `ben's files.get of ${fileId} without access`)
  f.check(r.ok, () => `ben's files.get of ${fileId} as ${a.role}: ${r.status}`)
  if (!r.ok) return
  const m = files(f)[fileId]!
  f.equal(
    [r.data.name, r.data.trashed, r.data.capabilities?.canEdit, r.data.capabilities?.canComment],
    [m.name, trashed(f, fileId), a.role === 'writer', a.role !== 'reader'],
    `ben's files.get of ${fileId} as ${a.role}`,
  )
}

async function benRename(f: Fuzz): Promise<void> {
  const ids = Object.keys(files(f))
  if (!ids.length) return
  const fileId = f.rng.pick(ids)
  const a = access(f, fileId)
  const name = f.rng.text(40)
  const r = await f.google('ben files.update', true, () =>
    f.ben.drive.files.update({ fileId, requestBody: { name }, fields: 'id,name' }),
  )
  const want = !a.role ? 404 : a.role === 'writer' ? 200 : 403
  f.equal(r.status, want, `ben renames ${fileId} as ${a.role ?? 'nobody'}`)
  if (!r.ok) return
  files(f)[fileId]!.name = name
  touched(f, fileId)
}

async function pages(f: Fuzz, q: string): Promise<string[]> {
  const seen: string[] = []
  let pageToken: string | undefined
  for (let i = 0; i < 500; i++) {
    const r = await f.google('ben files.list', false, () =>
      f.ben.drive.files.list({ q, pageSize: 1 + f.rng.int(4), pageToken, fields: 'nextPageToken,files(id)' }),
    )
    f.check(r.ok, () => `ben files.list ${q}: ${r.status} ${JSON.stringify(r.data)}`)
    seen.push(...(r.data.files ?? []).map((x) => x.id!))
    pageToken = r.data.nextPageToken ?? undefined
    if (!pageToken) break
  }
  f.equal(seen.length, new Set(seen).size, `${q} lists each file once`)
  return seen.sort()
}

/** `sharedWithMe`: files shared with Ben by a grant on the file itself; a shared folder's children, inherited. */
async function benList(f: Fuzz): Promise<void> {
  const live = (id: string) => !trashed(f, id)
  if (f.rng.chance(0.5)) {
    const want = Object.keys(files(f)).filter((id) => f.model.shares[id]?.ben && live(id))
    return f.equal(await pages(f, 'sharedWithMe and trashed = false'), want.sort(), `ben's sharedWithMe`)
  }
  const folders = Object.keys(files(f)).filter((id) => files(f)[id]!.folder && access(f, id).how === 'user')
  if (!folders.length) return
  const folder = f.rng.pick(folders)
  const want = Object.keys(files(f)).filter((id) => files(f)[id]!.parent === folder && live(id))
  f.equal(await pages(f, `'${folder}' in parents and trashed = false`), want.sort(), `ben lists shared ${folder}`)
}

/** Ben's changes feed: every file whose access or visible metadata differs for him since his page token. */
async function benChanges(f: Fuzz): Promise<void> {
  const feed = f.model.benChanges
  if (!feed.token) {
    const r = await f.google('ben changes.getStartPageToken', false, () => f.ben.drive.changes.getStartPageToken({}))
    f.check(r.ok, 'ben getStartPageToken')
    Object.assign(feed, { token: r.data.startPageToken!, views: views(f) })
    return
  }
  const seen: { fileId?: string | null; removed?: boolean | null }[] = []
  let pageToken = feed.token
  let next: string | undefined
  for (let i = 0; i < 500 && !next; i++) {
    const r = await f.google('ben changes.list', false, () =>
      f.ben.drive.changes.list({
        pageToken,
        pageSize: 1 + f.rng.int(4),
        fields: 'nextPageToken,newStartPageToken,changes(fileId,removed)',
      }),
    )
    f.check(r.ok, () => `ben changes.list: ${r.status} ${JSON.stringify(r.data)}`)
    seen.push(...(r.data.changes ?? []))
    next = r.data.newStartPageToken ?? undefined
    pageToken = r.data.nextPageToken!
  }
  const listed = seen.map((c) => c.fileId!)
  const now = views(f)
  const missing = Object.keys(now).filter(
    (id) =>
      now[id] !== 'link' &&
      feed.views[id] !== 'link' &&
      now[id] !== (feed.views[id] ?? 'false') &&
      !listed.includes(id),
  )
  const lost = Object.keys(feed.views).filter(
    (id) => !now[id] && !['link', 'false'].includes(feed.views[id]!) && !listed.includes(id),
  )
  missing.push(...lost)
  f.equal(missing, [], `ben's changes since ${feed.token} miss files whose access or metadata changed`)
  for (const c of seen) {
    const id = c.fileId!
    if (now[id] === 'link') continue
    const gone = !files(f)[id] || !access(f, id).role
    f.equal(!!c.removed, gone, `ben's change of ${id} removed`)
  }
  Object.assign(feed, { token: next, views: now })
}

export const shareOps: Op[] = [
  { name: 'share.grant', weight: 3, run: grant },
  { name: 'share.revoke', weight: 2, run: revoke },
  { name: 'share.list', weight: 1, run: list },
  { name: 'share.benGet', weight: 3, run: benGet },
  { name: 'share.benRename', weight: 1, run: benRename },
  { name: 'share.benList', weight: 2, run: benList },
  { name: 'share.benChanges', weight: 2, run: benChanges },
]
