import type { drive_v3 } from 'googleapis'
import type { Fuzz, Op } from './engine.ts'

// Drive ownership transfer between Ann and Ben (docs/decisions/0452): either uploads files; the owner shares edit
// access and transfers ownership (permissions.create or update with transferOwnership), the other side tries and is
// refused, an outsider is refused. Checked: `owners`/`ownedByMe` for both, `'me' in owners` and `'x' in owners`
// (paged), each user's storage quota (the bytes of what they own) and each user's changes feed. Run on its own: the
// `drive` family lists Ann's My Drive, where a transferred file's place is not modelled (COVERAGE: Deviation).

export type Who = 'ann' | 'ben'
/** A file: its owner, size, the other side's writer permission id, and whether that writer is a pending owner. */
export type Owned = { owner: Who; size: number; writer: Partial<Record<Who, string>>; pending?: Who }
export type OwnersModel = {
  files: Record<string, Owned>
  base?: Record<Who, number>
  marks: Record<Who, Mark>
  /** The `ownersConsumer` family's world: both users are consumer (gmail.com) accounts (ops-owners2.ts). */
  consumer?: boolean
}
type Mark = { token?: string; changed: string[] }

export const m = (f: Fuzz) => f.model.owners
export const other = (w: Who): Who => (w === 'ann' ? 'ben' : 'ann')
export const email = (f: Fuzz, w: Who) => `${w}@${m(f).consumer ? 'gmail.com' : 'example.com'}`
export const drive = (f: Fuzz, w: Who): drive_v3.Drive => (w === 'ann' ? f.drive : f.ben.drive)

async function usage(f: Fuzz, w: Who): Promise<number> {
  const r = await f.google(`about.get ${w}`, false, () => drive(f, w).about.get({ fields: 'storageQuota' }))
  f.check(r.ok, () => `about.get: ${r.status}`)
  return Number(r.data.storageQuota?.usage)
}

export async function ownersSetup(f: Fuzz): Promise<void> {
  m(f).base = { ann: await usage(f, 'ann'), ben: await usage(f, 'ben') }
  for (const w of ['ann', 'ben'] as const) await mark(f, w)
}

async function mark(f: Fuzz, w: Who): Promise<void> {
  const r = await f.google(`changes.getStartPageToken ${w}`, false, () => drive(f, w).changes.getStartPageToken({}))
  f.check(r.ok, 'getStartPageToken')
  m(f).marks[w] = { token: r.data.startPageToken ?? undefined, changed: [] }
}

export async function make(f: Fuzz): Promise<void> {
  const w: Who = f.rng.chance(0.6) ? 'ann' : 'ben'
  const body = 'x'.repeat(1 + f.rng.int(40))
  const r = await f.google(`files.create ${w}`, true, () =>
    drive(f, w).files.create(
      { requestBody: { name: f.rng.text(30) }, media: { mimeType: 'text/plain', body } },
      // The upload URL does not follow the client's rootUrl (as in ops-drive.ts).
      { rootUrl: f.server.url },
    ),
  )
  f.check(r.ok, () => `files.create: ${r.status}`)
  m(f).files[r.data.id!] = { owner: w, size: body.length, writer: {} }
  m(f).marks[w].changed.push(r.data.id!)
}

export async function share(f: Fuzz, id: string, file: Owned): Promise<void> {
  const to = other(file.owner)
  const r = await f.google(`permissions.create writer ${to}`, true, () =>
    drive(f, file.owner).permissions.create({
      fileId: id,
      sendNotificationEmail: false,
      requestBody: { type: 'user', role: 'writer', emailAddress: email(f, to) },
    }),
  )
  f.check(r.ok, () => `permissions.create writer: ${r.status} ${JSON.stringify(r.data)}`)
  file.writer[to] = r.data.id!
  for (const w of ['ann', 'ben'] as const) m(f).marks[w].changed.push(id)
}

async function transfer(f: Fuzz): Promise<void> {
  const ids = Object.keys(m(f).files)
  if (!ids.length) return make(f)
  const id = f.rng.pick(ids)
  const file = m(f).files[id]!
  const to = other(file.owner)
  const draw = f.rng.int(10)
  if (draw === 0) {
    const r = await f.google('transfer to an outsider', true, () =>
      drive(f, file.owner).permissions.create({
        fileId: id,
        transferOwnership: true,
        requestBody: { type: 'user', role: 'owner', emailAddress: 'zed@elsewhere.example' },
      }),
    )
    f.equal([r.status, reason(r.data)], [403, 'ownershipChangeAcrossDomainNotPermitted'], 'transfer to an outsider')
    return
  }
  if (draw === 1) {
    // The other side asks for the file: 404 without access, 403 as a writer.
    // A writer may also try to make their own permission the owner's.
    const own = file.writer[to] && f.rng.chance(0.5) ? file.writer[to] : undefined
    const r = await f.google(`transfer by a non-owner (${own ? 'update' : 'create'})`, true, () =>
      own
        ? drive(f, to).permissions.update({
            fileId: id,
            permissionId: own,
            transferOwnership: true,
            requestBody: { role: 'owner' },
          })
        : drive(f, to).permissions.create({
            fileId: id,
            transferOwnership: true,
            requestBody: { type: 'user', role: 'owner', emailAddress: email(f, to) },
          }),
    )
    const want = file.writer[to] ? [403, 'insufficientFilePermissions'] : [404, 'notFound']
    f.equal([r.status, reason(r.data)], want, 'transfer by a non-owner')
    return
  }
  if (!file.writer[to] && f.rng.chance(0.5)) return share(f, id, file)
  const byUpdate = Boolean(file.writer[to]) && f.rng.chance(0.5)
  const r = await f.google(`transfer ${byUpdate ? 'update' : 'create'} to ${to}`, true, () =>
    byUpdate
      ? drive(f, file.owner).permissions.update({
          fileId: id,
          permissionId: file.writer[to]!,
          transferOwnership: true,
          requestBody: { role: 'owner' },
        })
      : drive(f, file.owner).permissions.create({
          fileId: id,
          transferOwnership: true,
          requestBody: { type: 'user', role: 'owner', emailAddress: email(f, to) },
        }),
  )
  f.check(r.ok, () => `transfer: ${r.status} ${JSON.stringify(r.data)}`)
  f.equal([r.data.role, r.data.emailAddress], ['owner', email(f, to)], 'the new owner permission')
  const was = file.owner
  // The old owner is a writer now, the new one the owner; nobody else holds a permission.
  const list = await f.google('permissions.list', false, () =>
    drive(f, to).permissions.list({ fileId: id, fields: 'permissions(id,role,emailAddress)' }),
  )
  f.check(list.ok, () => `permissions.list: ${list.status}`)
  const perms = (list.data.permissions ?? []).map((p) => [p.emailAddress, p.role]).sort()
  f.equal(
    perms,
    [
      [email(f, was), 'writer'],
      [email(f, to), 'owner'],
    ].sort(),
    `permissions after the transfer of ${id}`,
  )
  file.writer = { [was]: list.data.permissions!.find((p) => p.emailAddress === email(f, was))!.id! }
  file.owner = to
  for (const w of ['ann', 'ben'] as const) m(f).marks[w].changed.push(id)
}
export const reason = (d: unknown) => (d as { error?: { errors?: { reason?: string }[] } }).error?.errors?.[0]?.reason

async function listAll(f: Fuzz, w: Who, q: string): Promise<string[]> {
  const out: string[] = []
  let pageToken: string | undefined
  const pageSize = 1 + f.rng.int(4)
  do {
    const r = await f.google(`files.list ${w} ${q}`, false, () =>
      drive(f, w).files.list({ q, pageSize, pageToken, fields: 'nextPageToken,files(id)' }),
    )
    f.check(r.ok, () => `files.list ${q}: ${r.status}`)
    out.push(...(r.data.files ?? []).map((x) => x.id!))
    pageToken = r.data.nextPageToken ?? undefined
  } while (pageToken)
  return out.sort()
}

export async function check(f: Fuzz): Promise<void> {
  const files = m(f).files
  for (const w of ['ann', 'ben'] as const) {
    const mine = Object.keys(files).filter((id) => files[id]!.owner === w)
    f.equal(await listAll(f, w, "'me' in owners"), mine.sort(), `${w}: 'me' in owners`)
    const theirs = Object.keys(files).filter((id) => files[id]!.owner !== w && files[id]!.writer[w])
    f.equal(await listAll(f, w, `'${email(f, other(w))}' in owners`), theirs.sort(), `${w}: the other's files`)
    const bytes = mine.reduce((n, id) => n + files[id]!.size, 0)
    f.equal(await usage(f, w), m(f).base![w] + bytes, `${w}'s storage quota`)
  }
  const ids = Object.keys(files)
  if (!ids.length) return
  const id = f.rng.pick(ids)
  for (const w of ['ann', 'ben'] as const) {
    const file = files[id]!
    const r = await f.google(`files.get ${w}`, false, () =>
      drive(f, w).files.get({
        fileId: id,
        fields: 'ownedByMe,owners(emailAddress,me),capabilities(canDelete,canAcceptOwnership)',
      }),
    )
    if (file.owner !== w && !file.writer[w]) {
      f.equal(r.status, 404, `${w} without access`)
      continue
    }
    f.check(r.ok, () => `files.get ${w}: ${r.status}`)
    const owns = file.owner === w
    f.equal(
      [r.data.ownedByMe, r.data.owners, r.data.capabilities?.canDelete, r.data.capabilities?.canAcceptOwnership],
      [owns, [{ emailAddress: email(f, file.owner), me: owns }], owns, file.pending === w],
      `${w} sees the owner of ${id}`,
    )
  }
}

/** Each user's changes since their mark list every file they saw made, shared or transferred, owners as now. */
export async function changes(f: Fuzz): Promise<void> {
  const w: Who = f.rng.chance(0.5) ? 'ann' : 'ben'
  const mk = m(f).marks[w]
  const seen = new Map<string, drive_v3.Schema$File | undefined>()
  let pageToken = mk.token
  while (pageToken) {
    const token = pageToken
    const r = await f.google(`changes.list ${w}`, false, () =>
      drive(f, w).changes.list({ pageToken: token, pageSize: 1 + f.rng.int(5), fields: '*' }),
    )
    f.check(r.ok, () => `changes.list: ${r.status}`)
    for (const c of r.data.changes ?? []) seen.set(c.fileId!, c.removed ? undefined : (c.file ?? undefined))
    pageToken = r.data.nextPageToken ?? undefined
    if (!pageToken) break
  }
  for (const id of new Set(mk.changed)) {
    const file = m(f).files[id]!
    f.check(seen.has(id), () => `${w}'s changes miss ${id}`)
    f.equal(
      seen.get(id)?.owners?.map((o) => o.emailAddress),
      [email(f, file.owner)],
      `${w}'s change of ${id}`,
    )
  }
  await mark(f, w)
}

export const ownersOps: Op[] = [
  { name: 'owners.make', weight: 2, run: make },
  { name: 'owners.transfer', weight: 5, run: transfer },
  { name: 'owners.check', weight: 2, run: check },
  { name: 'owners.changes', weight: 1, run: changes },
]
