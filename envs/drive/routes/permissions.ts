import { createRoute, z } from '@hono/zod-openapi'
import { createHash } from 'node:crypto'
import { stmt, updateRows, type Db } from '../../core/db.ts'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { badRequest, GoogleApiError, notFound } from '../../core/errors/google.ts'
import { findUserByAlias, findUserByEmail, findUserById } from '../../core/users.ts'
import { findGroupByEmail } from '../../core/groups.ts'
import { Permission } from '../api/schemas.gen.ts'
import { files, permissions } from '../schema.ts'
import { toPermission } from '../map.ts'
import { permissionIdFor, permissionsOf } from '../store/files.ts'
import { withAccessChanges } from '../store/access-changes.ts'
import { deliverInternalMail } from '../../gmail/deliver.ts'
import { bool, fileNotFound, insufficient, json, jsonBody, requireItem, supportsAllDrives } from './common.ts'
import { findSharedDrive } from '../store/drives.ts'
import { findBareFile } from '../store/files.ts'
import type { PermissionRow } from '../schema.ts'
import { atLeast, type Role } from '../store/files.ts'
import { requireDrive } from './drives.ts'

type Body = {
  role?: string
  type?: string
  emailAddress?: string
  domain?: string
  allowFileDiscovery?: boolean
  expirationTime?: string
  pendingOwner?: boolean
}
const ROLES = ['owner', 'organizer', 'fileOrganizer', 'writer', 'commenter', 'reader'] as const
const TYPES = ['user', 'group', 'domain', 'anyone'] as const

const Params = z.object({ fileId: z.string() })
const PermParams = Params.extend({ permissionId: z.string() })
const base = '/drive/v3/files/{fileId}/permissions'

const wellFormed = (s: string) => (s as string & { toWellFormed(): string }).toWellFormed() // ES2024, in Node 20

/** Permission ids: a person's id is the same on every file; `anyoneWithLink` and domain ids are fixed strings. */
/** A user's or group's Directory alias stands for its primary address (Drive grants the account, not the alias). */
function primaryAddress(c: WorldContext, email: string): string {
  const db = c.var.world.db
  if (findUserByEmail(db, email)) return email
  return findUserByAlias(db, email)?.email ?? findGroupByEmail(db, email)?.email ?? email
}

function permissionId(c: WorldContext, b: Body): string {
  if (b.type === 'anyone') return b.allowFileDiscovery ? 'anyone' : 'anyoneWithLink'
  if (b.type === 'domain') return `${b.domain}`.toLowerCase() + (b.allowFileDiscovery ? '' : 'WithLink')
  const user = findUserByEmail(c.var.world.db, b.emailAddress ?? '')
  if (user) return permissionIdFor(c.var.world.db, user.id)
  return BigInt(
    `0x${createHash('sha256')
      .update((b.emailAddress ?? '').toLowerCase())
      .digest('hex')
      .slice(0, 15)}`,
  )
    .toString()
    .padStart(20, '1')
}

/**
 * What a permissions call acts on: a file (shared drive items need supportsAllDrives, as in Drive) or a shared
 * drive itself (its members; managing them takes an organizer).
 */
function target(
  c: WorldContext,
  fileId: string,
  role: Role = 'reader',
): { id: string; name: string; ownerId: string; inDrive: boolean } {
  if (findSharedDrive(c.var.world.db, fileId)) {
    if (!supportsAllDrives(c)) throw fileNotFound(fileId)
    const { drive, role: have } = requireDrive(c, fileId, c.req.query('useDomainAdminAccess') === 'true', 'fileId')
    if (role !== 'reader' && !atLeast(have, 'organizer')) throw insufficient()
    return { id: drive.id, name: drive.name, ownerId: '', inDrive: true }
  }
  const row = requireItem(c, fileId, role)
  return { id: row.id, name: row.name, ownerId: row.driveId ? '' : row.ownerId, inDrive: row.driveId !== null }
}

const DELETE_PERMISSION = 'DELETE FROM drive_permissions WHERE file_id = ? AND id = ?'
/** A new grant, or a new role and expiration for the same grantee's (the id is the grantee's). */
const GRANT = `INSERT INTO drive_permissions (file_id, id, type, role, email_address, domain, allow_file_discovery,
  expiration_ms, pending_owner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (file_id, id) DO UPDATE SET role = excluded.role, expiration_ms = excluded.expiration_ms,
  pending_owner = excluded.pending_owner`

const RANKS = ['reader', 'commenter', 'writer', 'fileOrganizer', 'organizer', 'owner']

/**
 * Permissions as permissions.list shows them. In a shared drive, an item lists the drive's members (inherited) with
 * its own grants, each with `permissionDetails`; the drive itself lists its members.
 */
function visiblePermissions(c: WorldContext, t: { id: string; ownerId: string; inDrive: boolean }) {
  const db = c.var.world.db
  const own = permissionsOf(db, t.id)
  if (!t.inDrive) return own.map((p) => toPermission(db, p, t.ownerId))
  const isDrive = Boolean(findSharedDrive(db, t.id))
  const driveId = isDrive ? t.id : (findBareFile(db, t.id)?.driveId ?? t.id)
  const out = new Map<string, Record<string, unknown>>()
  const add = (p: PermissionRow, detail: Record<string, unknown>) => {
    const seen = out.get(p.id)
    if (!seen) {
      out.set(p.id, { ...toPermission(db, p, ''), permissionDetails: [detail] })
      return
    }
    ;(seen.permissionDetails as unknown[]).push(detail)
    if (RANKS.indexOf(p.role) > RANKS.indexOf(String(seen.role))) seen.role = p.role
  }
  if (!isDrive)
    for (const p of permissionsOf(db, driveId))
      add(p, { permissionType: 'member', role: p.role, inheritedFrom: driveId, inherited: true })
  for (const p of own) add(p, { permissionType: isDrive ? 'member' : 'file', role: p.role, inherited: false })
  return [...out.values()]
}

/** A shared drive's sharing restrictions, applied to grants on its items. */
function checkDriveRestrictions(c: WorldContext, fileId: string, b: Body) {
  const db = c.var.world.db
  const drive = findSharedDrive(db, fileId) ?? findSharedDrive(db, findBareFile(db, fileId)?.driveId ?? '')
  if (!drive || drive.id === fileId) return
  const r = JSON.parse(drive.restrictions) as Record<string, boolean>
  const home = (findUserById(db, drive.creatorId)?.email.split('@')[1] ?? '').toLowerCase()
  const domainOf = (b.type === 'domain' ? b.domain : b.emailAddress?.split('@')[1])?.toLowerCase()
  // Deviation: reasons and wording of these two refusals are unverified.
  if (r.domainUsersOnly && (b.type === 'anyone' || domainOf !== home))
    throw new GoogleApiError(
      'PERMISSION_DENIED',
      'teamDriveDomainUsersOnlyRestriction',
      'The shared drive only allows sharing with users in its domain.',
    )
  if (
    r.driveMembersOnly &&
    ((b.type !== 'user' && b.type !== 'group') ||
      !permissionsOf(db, drive.id).some((p) => p.emailAddress === b.emailAddress?.toLowerCase()))
  ) {
    throw new GoogleApiError(
      'PERMISSION_DENIED',
      'teamDriveTeamMembersOnlyRestriction',
      'Items in this shared drive can only be shared with its members.',
    )
  }
}

function validate(b: Body, inDrive: boolean) {
  if (!b.role || !ROLES.includes(b.role as never))
    throw badRequest('The permission role field is required.', 'required')
  if (!b.type || !TYPES.includes(b.type as never))
    throw badRequest('The permission type field is required.', 'required')
  if ((b.type === 'user' || b.type === 'group') && !b.emailAddress)
    throw badRequest('The permission emailAddress field is required for user and group permissions.', 'required')
  if ((b.type === 'user' || b.type === 'group') && !/^[^@\s]+@[^@\s]+$/.test(b.emailAddress!))
    throw badRequest(`Invalid email address: ${b.emailAddress}`, 'invalid')
  if (b.type === 'domain' && !b.domain)
    throw badRequest('The permission domain field is required for domain permissions.', 'required')
  if ((b.role === 'organizer' || b.role === 'fileOrganizer') && !inDrive)
    throw badRequest('Organizer roles apply to shared drives only.', 'invalidSharingRequest')
  if (b.role === 'owner' && inDrive)
    throw new GoogleApiError(
      'PERMISSION_DENIED',
      'teamDrivesOwnershipTransferNotSupported',
      'Ownership changes are not supported for items in shared drives.',
    )
  if (b.expirationTime !== undefined && Number.isNaN(Date.parse(b.expirationTime)))
    throw badRequest('Invalid expiration time.', 'invalid')
}

const list = createRoute({
  operationId: 'drive.permissions.list',
  method: 'get',
  path: base,
  request: { params: Params, query: z.object({ supportsAllDrives: bool(), useDomainAdminAccess: bool() }) },
  responses: { 200: json(z.object({ kind: z.string(), permissions: z.array(Permission) })) },
})
const get = createRoute({
  operationId: 'drive.permissions.get',
  method: 'get',
  path: `${base}/{permissionId}`,
  request: { params: PermParams, query: z.object({ supportsAllDrives: bool(), useDomainAdminAccess: bool() }) },
  responses: { 200: json(Permission) },
})
const create = createRoute({
  operationId: 'drive.permissions.create',
  method: 'post',
  path: base,
  request: {
    params: Params,
    query: z.object({
      sendNotificationEmail: bool(),
      emailMessage: z.string().optional(),
      transferOwnership: bool(),
      moveToNewOwnersRoot: bool(),
      supportsAllDrives: bool(),
    }),
    body: jsonBody(Permission),
  },
  responses: { 200: json(Permission) },
})
const update = createRoute({
  operationId: 'drive.permissions.update',
  method: 'patch',
  path: `${base}/{permissionId}`,
  request: {
    params: PermParams,
    query: z.object({
      transferOwnership: bool(),
      removeExpiration: bool(),
      supportsAllDrives: bool(),
      useDomainAdminAccess: bool(),
    }),
    body: jsonBody(Permission),
  },
  responses: { 200: json(Permission) },
})
const remove = createRoute({
  operationId: 'drive.permissions.delete',
  method: 'delete',
  path: `${base}/{permissionId}`,
  responses: { 204: { description: 'Deleted' } },
  request: { params: PermParams, query: z.object({ supportsAllDrives: bool(), useDomainAdminAccess: bool() }) },
})

const CONSUMER = new Set(['gmail.com', 'googlemail.com'])
const domainOf = (email: string) => email.split('@')[1]?.toLowerCase() ?? ''

/**
 * Refusals of a transfer, in Drive's order: items of shared drives have no owner; only the owner gives ownership
 * away, or the pending owner takes it (`accepting`: the caller's own permission is pending, docs/decisions/0456);
 * consumer accounts need the new owner's consent (that pendingOwner flow); a Workspace file's owner stays in its
 * organisation.
 */
function checkTransfer(
  c: WorldContext,
  row: { ownerId: string; inDrive: boolean },
  type: string,
  email: string,
  accepting = false,
) {
  if (row.inDrive)
    throw new GoogleApiError(
      'PERMISSION_DENIED',
      'teamDrivesOwnershipTransferNotSupported',
      'Ownership changes are not supported for items in shared drives.',
    )
  if (row.ownerId !== c.var.user.id && !accepting) throw notOwner()
  // Deviation: the wording of this refusal is unverified.
  if (type !== 'user') throw badRequest('Ownership can only be transferred to a user.', 'invalidSharingRequest')
  const home = domainOf(findUserById(c.var.world.db, row.ownerId)?.email ?? '')
  if (CONSUMER.has(home) && !accepting)
    throw new GoogleApiError(
      'PERMISSION_DENIED',
      'consentRequiredForOwnershipTransfer',
      'Consent is required to transfer ownership of a file to another user.',
    )
  // Deviation: reason as Drive gives it; the message is ours.
  if (domainOf(email) !== home || !findUserByEmail(c.var.world.db, email))
    throw new GoogleApiError(
      'PERMISSION_DENIED',
      'ownershipChangeAcrossDomainNotPermitted',
      'Ownership can only be transferred to another user in the same organization as the current owner.',
    )
}

const notOwner = () =>
  new GoogleApiError(
    'PERMISSION_DENIED',
    'insufficientFilePermissions',
    'The user does not have sufficient permissions for this file.',
  )

/** Whether the caller's own permission on the file is pending ownership (they may accept it). */
function pendingFor(c: WorldContext, fileId: string, permissionId: string): boolean {
  if (permissionId !== permissionIdFor(c.var.world.db, c.var.user.id)) return false
  return permissionsOf(c.var.world.db, fileId).some((p) => p.id === permissionId && p.pendingOwner)
}

/**
 * Asking a writer to take ownership (`pendingOwner`, consumer accounts' transfer): only the owner asks or withdraws,
 * and only of a user's permission that is a writer's once written (Drive's 403 `pendingOwnerWriterRequired`).
 * Deviation: the reasons and wording of the owner and user refusals are unverified; Drive documents the flow for
 * consumer accounts, and whether it refuses it on a Workspace file is unknown (the mock accepts it).
 */
function checkPending(
  c: WorldContext,
  row: { ownerId: string; inDrive: boolean },
  type: string,
  role: string,
  asking: boolean,
) {
  if (row.inDrive)
    throw new GoogleApiError(
      'PERMISSION_DENIED',
      'teamDrivesOwnershipTransferNotSupported',
      'Ownership changes are not supported for items in shared drives.',
    )
  if (row.ownerId !== c.var.user.id) throw notOwner()
  if (type !== 'user') throw badRequest('Only a user can be a pending owner.', 'invalidSharingRequest')
  if (asking && role !== 'writer')
    throw new GoogleApiError(
      'PERMISSION_DENIED',
      'pendingOwnerWriterRequired',
      'The target user cannot be a pending owner because the target user does not have a writer role for the file.',
    )
}

/**
 * The file's owner becomes `newOwnerEmail` (checked by checkTransfer); the old owner keeps a writer permission.
 * `toRoot` (moveToNewOwnersRoot) leaves the file in the new owner's My Drive only.
 */
// Deviation: a file at the top of the old owner's My Drive is stored without a parent, so it moves to the top of
// the new owner's even without moveToNewOwnersRoot (Drive keeps it in the old owner's root).
function transferOwnership(c: WorldContext, fileId: string, newOwnerEmail: string, oldOwnerId: string, toRoot = false) {
  const db = c.var.world.db
  const set = { ownerId: findUserByEmail(db, newOwnerEmail)!.id, ...(toRoot ? { parents: '[]' } : {}) }
  updateRows(db, files, set, { id: fileId })
  updateRows(db, permissions, { role: 'writer' }, { fileId, id: permissionIdFor(db, oldOwnerId) })
}

/** Drive's notification mail to a grantee (a world user's or group's address), from the acting user. */
function notifyGrantee(
  c: WorldContext,
  db: Db,
  row: { id: string; name: string },
  to: string,
  what: string,
  note?: string,
) {
  const sharer = c.var.user
  deliverInternalMail(db, {
    from: { name: `${sharer.name} (via Google Drive)`, email: 'drive-shares-dm-noreply@google.com' },
    to: [to],
    subject: `${row.name}`,
    text: `${sharer.name} (${sharer.email}) ${what}: ${row.name}\n${note ? `\n${note}\n` : ''}\nOpen: https://drive.google.com/open?id=${row.id}`,
    headers: { 'Reply-To': sharer.email },
  })
}

export const permissionsRouter = createGoogleRouter()
  .openapi(list, (c) => {
    const row = target(c, c.req.valid('param').fileId)
    return c.json({ kind: 'drive#permissionList', permissions: visiblePermissions(c, row) } as never, 200)
  })
  .openapi(get, (c) => {
    const { fileId, permissionId: id } = c.req.valid('param')
    const row = target(c, fileId)
    const p = visiblePermissions(c, row).find((x) => x.id === id)
    if (!p) throw notFound(`Permission not found: ${id}.`)
    return c.json(p as never, 200)
  })
  .openapi(create, (c) => {
    const { fileId } = c.req.valid('param')
    const q = c.req.valid('query')
    const row = target(c, fileId, 'writer')
    const b = { ...(c.req.valid('json') as Body) }
    // Grantees as the database keeps them: a lone surrogate (a JSON `\ud800` escape) is stored as U+FFFD bytes,
    // and an id that kept it would not find its own row again (a 500, docs/decisions/0387).
    if (typeof b.domain === 'string') b.domain = wellFormed(b.domain)
    if (typeof b.emailAddress === 'string') b.emailAddress = primaryAddress(c, wellFormed(b.emailAddress))
    validate(b, row.inDrive)
    if (row.inDrive) checkDriveRestrictions(c, fileId, b)
    if (b.role === 'owner' && !q.transferOwnership)
      throw new GoogleApiError(
        'PERMISSION_DENIED',
        'forbidden',
        "The transferOwnership parameter must be enabled when the permission role is 'owner'.",
      )
    // Discovery: sendNotificationEmail "must not be disabled for ownership transfers". Deviation: the status, reason
    // and wording of the refusal are unverified (Drive documents the rule, not its error).
    if (b.role === 'owner' && q.sendNotificationEmail === false)
      throw badRequest('The sendNotificationEmail parameter cannot be disabled for ownership transfers.')
    const id = permissionId(c, b)
    const existing = permissionsOf(c.var.world.db, fileId).find((p) => p.id === id)
    // A grant to the owner's own address would overwrite the owner's permission (the file keeps its owner).
    // Deviation: Drive's answer to it is unverified; the refusal is update's.
    if (existing?.role === 'owner')
      throw new GoogleApiError('PERMISSION_DENIED', 'forbidden', 'The owner of a file cannot be changed this way.')
    if (b.role === 'owner')
      checkTransfer(c, row, b.type!, b.emailAddress ?? '', b.type === 'user' && pendingFor(c, fileId, id))
    else if (b.pendingOwner || (b.pendingOwner === false && existing?.pendingOwner))
      checkPending(c, row, b.type!, b.role!, b.pendingOwner)
    // Granting again keeps a pending request while the grantee stays a writer.
    const pending = b.role === 'writer' && (b.pendingOwner ?? existing?.pendingOwner ?? false)
    const perm = c.var.world.tx((db) => {
      const values = {
        fileId,
        id,
        type: b.type as 'user',
        role: (b.role === 'owner' ? 'owner' : b.role) as 'reader',
        emailAddress: b.emailAddress?.toLowerCase() ?? null,
        domain: b.domain?.toLowerCase() ?? null,
        allowFileDiscovery: b.allowFileDiscovery ?? false,
        expirationMs: b.expirationTime ? Date.parse(b.expirationTime) : null,
      }
      const v = values
      const discovery = v.allowFileDiscovery ? 1 : 0
      withAccessChanges(db, fileId, () => {
        if (b.role === 'owner') transferOwnership(c, fileId, b.emailAddress!, row.ownerId, q.moveToNewOwnersRoot)
        const grant = [v.fileId, v.id, v.type, v.role, v.emailAddress, v.domain, discovery, v.expirationMs, +pending]
        stmt(db, GRANT).run(...grant)
      })
      // Share notifications reach world users' inboxes (default on for users and groups); an ownership transfer
      // always tells the new owner (its sendNotificationEmail cannot be false).
      const notify = b.role === 'owner' || (q.sendNotificationEmail ?? (b.type === 'user' || b.type === 'group'))
      // Deviation: the wording of the ownership request and of the transfer notice is ours.
      const what =
        b.role === 'owner'
          ? 'made you the owner of a file'
          : pending
            ? 'asked you to become the owner of a file'
            : 'shared a file with you'
      if (notify && b.emailAddress) notifyGrantee(c, db, row, b.emailAddress, what, q.emailMessage)
      return permissionsOf(db, fileId).find((p) => p.id === id)!
    })
    return c.json(toPermission(c.var.world.db, perm, row.ownerId) as never, 200)
  })
  .openapi(update, (c) => {
    const { fileId, permissionId: id } = c.req.valid('param')
    const q = c.req.valid('query')
    const row = target(c, fileId, 'writer')
    const b = c.req.valid('json') as Body
    if ((b.role === 'organizer' || b.role === 'fileOrganizer') && !row.inDrive)
      throw badRequest('Organizer roles apply to shared drives only.', 'invalidSharingRequest')
    const current = permissionsOf(c.var.world.db, fileId).find((x) => x.id === id)
    if (!current) throw notFound(`Permission not found: ${id}.`)
    if (current.role === 'owner')
      throw new GoogleApiError('PERMISSION_DENIED', 'forbidden', 'The owner of a file cannot be changed this way.')
    if (b.role === 'owner' && !q.transferOwnership)
      throw new GoogleApiError(
        'PERMISSION_DENIED',
        'forbidden',
        "The transferOwnership parameter must be enabled when the permission role is 'owner'.",
      )
    if (b.role && !ROLES.includes(b.role as never)) throw badRequest(`Invalid role: ${b.role}`, 'invalid')
    const role = b.role ?? current.role
    if (b.role === 'owner') checkTransfer(c, row, current.type, current.emailAddress ?? '', pendingFor(c, fileId, id))
    else if (b.pendingOwner || (b.pendingOwner === false && current.pendingOwner))
      checkPending(c, row, current.type, role, b.pendingOwner)
    // A pending request lasts while the grantee is a writer; it ends when they take ownership or lose the role.
    const pending = role === 'writer' && (b.pendingOwner ?? current.pendingOwner)
    const perm = c.var.world.tx((db) => {
      withAccessChanges(db, fileId, () => {
        if (b.role === 'owner') transferOwnership(c, fileId, current.emailAddress ?? '', row.ownerId)
        const set: Partial<typeof permissions.$inferInsert> = {}
        if (b.role) set.role = b.role as 'reader'
        if (b.expirationTime) set.expirationMs = Date.parse(b.expirationTime)
        if (q.removeExpiration) set.expirationMs = null
        if (pending !== current.pendingOwner) set.pendingOwner = pending
        if (Object.keys(set).length) updateRows(db, permissions, set, { fileId, id })
      })
      if (b.role === 'owner' && current.emailAddress)
        notifyGrantee(c, db, row, current.emailAddress, 'made you the owner of a file')
      return permissionsOf(db, fileId).find((p) => p.id === id)!
    })
    return c.json(toPermission(c.var.world.db, perm, row.ownerId) as never, 200)
  })
  .openapi(remove, (c) => {
    const { fileId, permissionId: id } = c.req.valid('param')
    target(c, fileId, 'writer')
    const current = permissionsOf(c.var.world.db, fileId).find((x) => x.id === id)
    if (!current) throw notFound(`Permission not found: ${id}.`)
    if (current.role === 'owner')
      throw new GoogleApiError('PERMISSION_DENIED', 'cannotRemoveOwner', 'The owner of a file cannot be removed.')
    c.var.world.tx((db) => {
      withAccessChanges(db, fileId, () => stmt(db, DELETE_PERMISSION).run(fileId, id))
    })
    return c.body(null, 204)
  })
