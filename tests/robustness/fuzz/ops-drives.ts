import type { Fuzz, Op } from './engine.ts'

// Shared drives between Ann and Ben (docs/decisions/0448): Ann creates drives and manages Ben's membership (each
// role, changed, removed); either adds folders and files where their role lets them, trashes and restores items
// (fileOrganizer and up); checked by each side's files.list (corpora=drive, driveId, paged 1–4, by folder),
// drives.list and drives.get, files.get with capabilities, and refusals by role (404 for a non-member).

export type DrivesModel = Record<
  string,
  {
    name: string
    ben?: { id: string; role: string }
    files: Record<string, { parent: string; trashed: boolean; folder: boolean }>
  }
>
const USERS = ['ann', 'ben'] as const
const ROLES = ['reader', 'commenter', 'writer', 'fileOrganizer', 'organizer']
const rank = (role: string | undefined) => (role ? ROLES.indexOf(role) : -1)
const drives = (f: Fuzz) => f.model.drives
const client = (f: Fuzz, u: string) => (u === 'ann' ? f.drive : f.ben.drive)
/** Ann created every drive (an organizer); Ben's role is his membership. */
const roleOf = (f: Fuzz, u: string, d: string) => (u === 'ann' ? 'organizer' : drives(f)[d]!.ben?.role)
const ALL = { supportsAllDrives: true }

function pick(f: Fuzz): [string, DrivesModel[string]] | undefined {
  const all = Object.entries(drives(f))
  return all.length ? f.rng.pick(all) : undefined
}
/** Whether an item is in the trash: itself or a folder above it. */
function trashed(d: DrivesModel[string], id: string): boolean {
  for (let at: string | undefined = id; at && d.files[at]; at = d.files[at]!.parent)
    if (d.files[at]!.trashed) return true
  return false
}

async function create(f: Fuzz): Promise<void> {
  const name = f.rng.text(40)
  const r = await f.google('drives.create', true, () =>
    f.drive.drives.create({ requestId: `fuzz-${f.step}-${f.rng.int(1e9)}`, requestBody: { name } }),
  )
  f.check(r.ok, () => `drives.create: ${r.status} ${JSON.stringify(r.data)}`)
  f.equal(r.data.name, name, 'drive name')
  drives(f)[r.data.id!] = { name, files: {} }
}

/** Ann adds Ben, changes his role or removes him; permissions.list then shows it. */
async function member(f: Fuzz): Promise<void> {
  const got = pick(f)
  if (!got) return create(f)
  const [driveId, d] = got
  const perms = f.drive.permissions
  if (d.ben && f.rng.chance(0.3)) {
    const r = await f.google('drive member remove', true, () =>
      perms.delete({ fileId: driveId, permissionId: d.ben!.id, ...ALL }),
    )
    f.check(r.ok, () => `remove Ben from ${driveId}: ${r.status} ${JSON.stringify(r.data)}`)
    delete d.ben
  } else {
    const role = f.rng.pick(ROLES.filter((x) => x !== d.ben?.role))
    const r = d.ben
      ? await f.google('drive member role', true, () =>
          perms.update({ fileId: driveId, permissionId: d.ben!.id, requestBody: { role }, ...ALL }),
        )
      : await f.google('drive member add', true, () =>
          perms.create({
            fileId: driveId,
            sendNotificationEmail: false,
            requestBody: { type: 'user', role, emailAddress: 'ben@example.com' },
            ...ALL,
          }),
        )
    f.check(r.ok, () => `Ben's membership of ${driveId}: ${r.status} ${JSON.stringify(r.data)}`)
    f.equal(r.data.role, role, 'member role')
    d.ben = { id: r.data.id!, role }
  }
  const l = await f.google('drive members', false, () =>
    perms.list({ fileId: driveId, fields: 'permissions(id,role,emailAddress)', ...ALL }),
  )
  f.check(l.ok, () => `members of ${driveId}: ${l.status}`)
  const ben = l.data.permissions?.filter((p) => p.emailAddress === 'ben@example.com').map((p) => p.role)
  f.equal(ben, d.ben ? [d.ben.role] : [], `Ben's membership of ${driveId}`)
}

/** Ann or Ben adds a folder or a file at the drive's root or in a folder: writers and up may. */
async function add(f: Fuzz): Promise<void> {
  const got = pick(f)
  if (!got) return create(f)
  const [driveId, d] = got
  const u = f.rng.pick(USERS)
  const folders = Object.keys(d.files).filter((id) => d.files[id]!.folder && !trashed(d, id))
  const parent = folders.length && f.rng.chance(0.5) ? f.rng.pick(folders) : driveId
  const folder = f.rng.chance(0.4)
  const r = await f.google(`${u} files.create in drive`, true, () =>
    client(f, u).files.create({
      requestBody: {
        name: f.rng.text(40),
        parents: [parent],
        ...(folder ? { mimeType: 'application/vnd.google-apps.folder' } : {}),
      },
      fields: 'id,driveId,parents',
      ...ALL,
    }),
  )
  const role = roleOf(f, u, driveId)
  const want = !role ? 404 : rank(role) < rank('writer') ? 403 : 200
  f.equal(r.status, want, `${u} (${role ?? 'no member'}) adds to ${driveId}`)
  if (!r.ok) return
  f.equal([r.data.driveId, r.data.parents], [driveId, [parent]], 'new item in the drive')
  d.files[r.data.id!] = { parent, trashed: false, folder }
}

/** Trash or restore an item (fileOrganizer and up). */
async function trash(f: Fuzz): Promise<void> {
  const got = pick(f)
  if (!got) return create(f)
  const [driveId, d] = got
  const ids = Object.keys(d.files).filter((id) => !trashed(d, d.files[id]!.parent) || d.files[id]!.trashed)
  if (!ids.length) return add(f)
  const u = f.rng.pick(USERS)
  const id = f.rng.pick(ids)
  // Only an item's own trashed state changes (nothing inside a trashed folder is moved in or out of the trash).
  if (trashed(d, d.files[id]!.parent)) return
  const to = !d.files[id]!.trashed
  const r = await f.google(`${u} files.update trashed`, true, () =>
    client(f, u).files.update({ fileId: id, requestBody: { trashed: to }, ...ALL }),
  )
  const role = roleOf(f, u, driveId)
  const want = !role ? 404 : rank(role) < rank('fileOrganizer') ? 403 : 200
  f.equal(r.status, want, `${u} (${role ?? 'no member'}) trashes=${to} ${id}`)
  if (r.ok) d.files[id]!.trashed = to
}

/** One side lists a folder of a drive (paged) and reads one item; a non-member is refused. */
async function list(f: Fuzz): Promise<void> {
  const got = pick(f)
  if (!got) return create(f)
  const [driveId, d] = got
  const u = f.rng.pick(USERS)
  const role = roleOf(f, u, driveId)
  const folders = Object.keys(d.files).filter((id) => d.files[id]!.folder)
  const parent = folders.length && f.rng.chance(0.4) ? f.rng.pick(folders) : driveId
  const seen: string[] = []
  let pageToken: string | undefined
  for (let i = 0; i < 500; i++) {
    const r = await f.google(`${u} files.list drive`, false, () =>
      client(f, u).files.list({
        corpora: 'drive',
        driveId,
        includeItemsFromAllDrives: true,
        q: `'${parent}' in parents and trashed = false`,
        pageSize: 1 + f.rng.int(4),
        pageToken,
        ...ALL,
      }),
    )
    if (!role) return f.equal(r.status, 404, `${u} lists a drive he is not a member of`)
    f.check(r.ok, () => `${u} lists ${driveId}: ${r.status} ${JSON.stringify(r.data)}`)
    seen.push(...(r.data.files ?? []).map((x) => x.id!))
    pageToken = r.data.nextPageToken ?? undefined
    if (!pageToken) break
  }
  const want = Object.keys(d.files).filter((id) => d.files[id]!.parent === parent && !trashed(d, id))
  f.equal(seen.sort(), want.sort(), `${u}'s listing of ${parent} in ${driveId}`)
  const ids = Object.keys(d.files)
  if (!ids.length) return
  const id = f.rng.pick(ids)
  const g = await f.google(`${u} files.get drive item`, false, () =>
    client(f, u).files.get({ fileId: id, fields: 'id,driveId,trashed,capabilities(canEdit,canTrash)', ...ALL }),
  )
  f.check(g.ok, () => `${u} reads ${id}: ${g.status}`)
  const caps = g.data.capabilities
  f.equal(
    [g.data.driveId, caps?.canEdit, caps?.canTrash],
    [driveId, rank(role) >= rank('writer'), rank(role) >= rank('fileOrganizer')],
    `${u} (${role}) reads ${id}`,
  )
}

/** Ben's drives.list holds exactly the drives he is a member of; drives.get of one he is not answers 404. */
async function benDrives(f: Fuzz): Promise<void> {
  const r = await f.google('ben drives.list', false, () => f.ben.drive.drives.list({ pageSize: 100 }))
  f.check(r.ok, () => `ben drives.list: ${r.status}`)
  const want = Object.keys(drives(f)).filter((id) => drives(f)[id]!.ben)
  f.equal((r.data.drives ?? []).map((x) => x.id!).sort(), want.sort(), "Ben's drives")
  const got = pick(f)
  if (!got) return
  const g = await f.google('ben drives.get', false, () => f.ben.drive.drives.get({ driveId: got[0] }))
  if (!got[1].ben) return f.equal(g.status, 404, 'drives.get by a non-member')
  f.check(g.ok, 'ben drives.get')
  f.equal(g.data.name, got[1].name, 'drive name as Ben sees it')
}

export const drivesOps: Op[] = [
  { name: 'drives.create', weight: 1, run: create },
  { name: 'drives.member', weight: 3, run: member },
  { name: 'drives.add', weight: 4, run: add },
  { name: 'drives.trash', weight: 2, run: trash },
  { name: 'drives.list', weight: 4, run: list },
  { name: 'drives.benDrives', weight: 2, run: benDrives },
]
