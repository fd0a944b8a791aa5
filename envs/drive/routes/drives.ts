import { createRoute, z } from '@hono/zod-openapi'
import { eq } from 'drizzle-orm'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { badRequest, GoogleApiError } from '../../core/errors/google.ts'
import { decodePageToken, encodePageToken } from '../../core/paging.ts'
import { nowMs } from '../../core/clock.ts'
import { findUserById } from '../../core/users.ts'
import { Drive, DriveList, TeamDrive, TeamDriveList } from '../api/schemas.gen.ts'
import { permissions, sharedDrives, type SharedDriveRow } from '../schema.ts'
import { DEFAULT_DRIVE_COLOR, DRIVE_THEMES, memberCounts, toSharedDrive } from '../map-drive.ts'
import { findSharedDrive, itemsOfDrive, memberRole, newSharedDriveId } from '../store/drives.ts'
import { atLeast, permissionIdFor, type Role } from '../store/files.ts'
import { parseDrivesQuery } from '../query/drives-q.ts'
import { removeFile } from './files.ts'
import { bool, json, jsonBody } from './common.ts'
import { intParam } from '../../core/param-errors.ts'

type Body = {
  name?: string
  themeId?: string
  colorRgb?: string
  backgroundImageFile?: unknown
  restrictions?: Record<string, unknown>
  hidden?: boolean
}

/** Drive's 404 for a shared drive the caller is not a member of (the same whether it exists or not). */
export const driveNotFound = (id: string, location = 'driveId') =>
  new GoogleApiError('NOT_FOUND', 'notFound', `Shared drive not found: ${id}`, { location, locationType: 'parameter' })

const adminOnly = () =>
  new GoogleApiError(
    'PERMISSION_DENIED',
    'insufficientAdministratorPrivileges',
    'The user does not have sufficient administrator privileges to perform this action.',
  )

/** The drive and the caller's role on it; domain administrators with useDomainAdminAccess act as organizers. */
export function requireDrive(
  c: WorldContext,
  id: string,
  admin = false,
  location = 'driveId',
): { drive: SharedDriveRow; role: Role } {
  const db = c.var.world.db
  if (admin && !findUserById(db, c.var.user.id)?.isAdmin) throw adminOnly()
  const drive = findSharedDrive(db, id)
  const role = drive ? (admin ? 'organizer' : memberRole(db, id, c.var.user.id)) : 'none'
  if (!drive || role === 'none') throw driveNotFound(id, location)
  return { drive, role }
}

const RESTRICTION_KEYS = [
  'adminManagedRestrictions',
  'copyRequiresWriterPermission',
  'domainUsersOnly',
  'driveMembersOnly',
  'teamMembersOnly',
  'sharingFoldersRequiresOrganizerPermission',
]

function checkLook(b: Body) {
  if (b.themeId !== undefined && (b.colorRgb !== undefined || b.backgroundImageFile !== undefined))
    throw badRequest('A theme ID cannot be specified with a color or background image in the same request.', 'invalid')
  if (b.themeId !== undefined && !DRIVE_THEMES.some((t) => t.id === b.themeId))
    throw badRequest(`Invalid value for themeId: ${b.themeId}`, 'invalid')
  if (b.colorRgb !== undefined && !/^#[0-9a-fA-F]{6}$/.test(b.colorRgb))
    throw badRequest(`Invalid value for colorRgb: ${b.colorRgb}`, 'invalid')
}

/** Routes for one flavour: `drives` (v3) or the legacy `teamdrives` on the same store. */
function sharedDriveRouter(legacy: boolean) {
  const base = legacy ? '/drive/v3/teamdrives' : '/drive/v3/drives'
  const idName = legacy ? 'teamDriveId' : 'driveId'
  const prefix = legacy ? 'drive.teamdrives' : 'drive.drives'
  const Res = legacy ? TeamDrive : Drive
  const Params = z.object({ [idName]: z.string() }) as unknown as z.ZodObject<{ driveId: z.ZodString }>
  const show = (c: WorldContext, d: SharedDriveRow, role: Role) => {
    const full = toSharedDrive(c.var.world.db, d, c.var.user.id, role, legacy)
    return c.req.query('fields') ? full : { kind: full.kind, id: full.id, name: full.name }
  }
  const idOf = (c: WorldContext) => c.req.param(idName) ?? ''
  const admin = { useDomainAdminAccess: bool() }
  const create = createRoute({
    operationId: `${prefix}.create`,
    method: 'post',
    path: base,
    request: { query: z.object({ requestId: z.string().optional() }), body: jsonBody(Res, false) },
    responses: { 200: json(Res) },
  })
  const get = createRoute({
    operationId: `${prefix}.get`,
    method: 'get',
    path: `${base}/{${idName}}`,
    request: { params: Params, query: z.object(admin) },
    responses: { 200: json(Res) },
  })
  const list = createRoute({
    operationId: `${prefix}.list`,
    method: 'get',
    path: base,
    request: {
      query: z.object({
        q: z.string().optional(),
        pageSize: intParam({ min: 1, max: 100, dflt: 10 }),
        pageToken: z.string().optional(),
        ...admin,
      }),
    },
    responses: { 200: json(legacy ? TeamDriveList : DriveList) },
  })
  const update = createRoute({
    operationId: `${prefix}.update`,
    method: 'patch',
    path: `${base}/{${idName}}`,
    request: { params: Params, query: z.object(admin), body: jsonBody(Res, false) },
    responses: { 200: json(Res) },
  })
  const remove = createRoute({
    operationId: `${prefix}.delete`,
    method: 'delete',
    path: `${base}/{${idName}}`,
    request: { params: Params, query: z.object({ ...admin, allowItemDeletion: bool() }) },
    responses: { 204: { description: 'Deleted' } },
  })

  return createGoogleRouter()
    .openapi(create, (c) => {
      const requestId = c.req.valid('query').requestId
      if (!requestId)
        throw badRequest('Required parameter: requestId', 'required', {
          location: 'requestId',
          locationType: 'parameter',
        })
      const b = (c.req.valid('json') ?? {}) as Body
      checkLook(b)
      const db = c.var.world.db
      const dup = db
        .select()
        .from(sharedDrives)
        .all()
        .find((d) => d.creatorId === c.var.user.id && d.requestId === requestId)
      if (dup)
        throw new GoogleApiError('ALREADY_EXISTS', 'duplicate', 'A shared drive with this request ID already exists.', {
          location: 'requestId',
          locationType: 'parameter',
        })
      const row = c.var.world.tx((tx) => {
        const id = newSharedDriveId(tx)
        tx.insert(sharedDrives)
          .values({
            id,
            name: b.name ?? 'Untitled',
            creatorId: c.var.user.id,
            requestId,
            createdMs: nowMs(tx),
            themeId: b.themeId ?? null,
            colorRgb: b.colorRgb ?? DRIVE_THEMES.find((t) => t.id === b.themeId)?.colorRgb ?? DEFAULT_DRIVE_COLOR,
          })
          .run()
        tx.insert(permissions)
          .values({
            fileId: id,
            id: permissionIdFor(tx, c.var.user.id),
            type: 'user',
            role: 'organizer',
            emailAddress: c.var.user.email.toLowerCase(),
          })
          .run()
        return findSharedDrive(tx, id)!
      })
      return c.json(show(c, row, 'organizer') as never, 200)
    })
    .openapi(list, (c) => {
      const q = c.req.valid('query')
      const db = c.var.world.db
      if (q.useDomainAdminAccess && !findUserById(db, c.var.user.id)?.isAdmin) throw adminOnly()
      const pred = q.q?.trim() ? parseDrivesQuery(q.q) : undefined
      const all = db.select().from(sharedDrives).orderBy(sharedDrives.createdMs, sharedDrives.id).all()
      const visible = all
        .map((d) => ({ d, role: q.useDomainAdminAccess ? ('organizer' as Role) : memberRole(db, d.id, c.var.user.id) }))
        .filter(({ role }) => role !== 'none')
        .filter(({ d }) => {
          if (!pred) return true
          const n = memberCounts(db, d.id)
          return pred({
            name: d.name,
            createdTime: new Date(d.createdMs).toISOString(),
            memberCount: n.members,
            organizerCount: n.organizers,
            hidden: (JSON.parse(d.hiddenBy) as string[]).includes(c.var.user.id),
            orgUnitId: '',
          })
        })
      const start = Number(decodePageToken<{ o: number }>(q.pageToken)?.o ?? 0)
      const page = visible.slice(start, start + q.pageSize)
      const body: Record<string, unknown> = { kind: legacy ? 'drive#teamDriveList' : 'drive#driveList' }
      if (start + q.pageSize < visible.length) body.nextPageToken = encodePageToken({ o: start + q.pageSize })
      body[legacy ? 'teamDrives' : 'drives'] = page.map(({ d, role }) => show(c, d, role as Role))
      return c.json(body as never, 200)
    })
    .openapi(get, (c) => {
      const { drive, role } = requireDrive(c, idOf(c), c.req.valid('query').useDomainAdminAccess, idName)
      return c.json(show(c, drive, role) as never, 200)
    })
    .openapi(update, (c) => {
      const { drive, role } = requireDrive(c, idOf(c), c.req.valid('query').useDomainAdminAccess, idName)
      if (!atLeast(role, 'organizer'))
        throw new GoogleApiError(
          'PERMISSION_DENIED',
          'insufficientFilePermissions',
          'The user does not have sufficient permissions for this file.',
        )
      const b = (c.req.valid('json') ?? {}) as Body
      checkLook(b)
      const set: Partial<SharedDriveRow> = {}
      if (b.name !== undefined) {
        if (!b.name.trim()) throw badRequest('The shared drive name cannot be empty.', 'invalid')
        set.name = b.name
      }
      if (b.themeId !== undefined)
        Object.assign(set, { themeId: b.themeId, colorRgb: DRIVE_THEMES.find((t) => t.id === b.themeId)!.colorRgb })
      if (b.colorRgb !== undefined) set.colorRgb = b.colorRgb
      if (b.restrictions) {
        const unknown = Object.keys(b.restrictions).find((k) => !RESTRICTION_KEYS.includes(k))
        if (unknown) throw badRequest(`Invalid field: restrictions.${unknown}`, 'invalid')
        const next: Record<string, unknown> = { ...JSON.parse(drive.restrictions) }
        for (const [k, v] of Object.entries(b.restrictions))
          if (k !== 'adminManagedRestrictions' || findUserById(c.var.world.db, c.var.user.id)?.isAdmin)
            next[k === 'teamMembersOnly' ? 'driveMembersOnly' : k] = Boolean(v)
        set.restrictions = JSON.stringify(next)
      }
      if (Object.keys(set).length)
        c.var.world.db.update(sharedDrives).set(set).where(eq(sharedDrives.id, drive.id)).run()
      return c.json(show(c, findSharedDrive(c.var.world.db, drive.id)!, role) as never, 200)
    })
    .openapi(remove, (c) => {
      const q = c.req.valid('query')
      const { drive, role } = requireDrive(c, idOf(c), q.useDomainAdminAccess, idName)
      if (!atLeast(role, 'organizer'))
        throw new GoogleApiError(
          'PERMISSION_DENIED',
          'insufficientFilePermissions',
          'The user does not have sufficient permissions for this file.',
        )
      if (q.allowItemDeletion && !q.useDomainAdminAccess)
        throw badRequest(
          'The allowItemDeletion parameter is only supported when useDomainAdminAccess is set to true.',
          'invalid',
        )
      const items = itemsOfDrive(c.var.world.db, drive.id)
      if (!q.allowItemDeletion && items.some((f) => !f.trashed))
        throw new GoogleApiError(
          'PERMISSION_DENIED',
          'cannotDeleteResourceWithChildren',
          'The shared drive cannot be deleted because it contains one or more untrashed items.',
        )
      c.var.world.tx((db) => {
        for (const f of items) removeFile(db, f.id)
        db.delete(permissions).where(eq(permissions.fileId, drive.id)).run()
        db.delete(sharedDrives).where(eq(sharedDrives.id, drive.id)).run()
      })
      return c.body(null, 204)
    })
}

const hideRoute = (verb: 'hide' | 'unhide') =>
  createRoute({
    operationId: `drive.drives.${verb}`,
    method: 'post',
    path: `/drive/v3/drives/{driveId}/${verb}`,
    request: { params: z.object({ driveId: z.string() }) },
    responses: { 200: json(Drive) },
  })

function setHidden(c: WorldContext, hidden: boolean) {
  const { drive, role } = requireDrive(c, c.req.param('driveId') ?? '')
  const me = c.var.user.id
  const by = (JSON.parse(drive.hiddenBy) as string[]).filter((u) => u !== me)
  if (hidden) by.push(me)
  c.var.world.db
    .update(sharedDrives)
    .set({ hiddenBy: JSON.stringify(by.sort()) })
    .where(eq(sharedDrives.id, drive.id))
    .run()
  const full = toSharedDrive(c.var.world.db, findSharedDrive(c.var.world.db, drive.id)!, me, role)
  return c.req.query('fields') ? full : { kind: full.kind, id: full.id, name: full.name, hidden: full.hidden }
}

export const drivesRouter = createGoogleRouter()
  .openapi(hideRoute('hide'), (c) => c.json(setHidden(c, true) as never, 200))
  .openapi(hideRoute('unhide'), (c) => c.json(setHidden(c, false) as never, 200))
  .route('/', sharedDriveRouter(false))
  .route('/', sharedDriveRouter(true))
