import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import { nowMs } from '../../core/clock.ts'
import { urlSafeId } from '../../core/ids.ts'
import { pageOf } from '../../core/paging.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { transferDriveFiles, type PrivacyLevel } from '../../drive/transfer.ts'
import { transferCalendarEvents } from '../../calendar/transfer.ts'
import { customerId, googleUserId } from '../ids.ts'
import { isActive } from '../store/users.ts'
import {
  appsOf,
  CALENDAR_APP,
  DRIVE_APP,
  findTransfer,
  insertTransfer,
  listTransfers,
  TRANSFER_APPS,
  type AppTransfer,
  type TransferParam,
  type TransferRow,
} from '../store/transfers.ts'
import { etag, requireAdmin, userByKey } from './directory-tokens.ts'
import { json, Any, Body } from './openapi-shapes.ts'

const Paging = { maxResults: z.coerce.number().int().min(1).max(500).optional(), pageToken: z.string().optional() }
const invalid = (what: string) => new GoogleApiError('INVALID_ARGUMENT', 'invalid', `Invalid Input: ${what}`)
const base = '/admin/datatransfer/v1'

const appsList = createRoute({
  operationId: 'datatransfer.applications.list',
  method: 'get',
  path: `${base}/applications`,
  request: { query: z.object({ customerId: z.string().optional(), ...Paging }) },
  responses: { 200: Any },
})
const appsGet = createRoute({
  operationId: 'datatransfer.applications.get',
  method: 'get',
  path: `${base}/applications/{applicationId}`,
  request: { params: z.object({ applicationId: z.string() }) },
  responses: { 200: Any },
})
const transfersInsert = createRoute({
  operationId: 'datatransfer.transfers.insert',
  method: 'post',
  path: `${base}/transfers`,
  request: { body: Body },
  responses: { 200: Any },
})
const transfersGet = createRoute({
  operationId: 'datatransfer.transfers.get',
  method: 'get',
  path: `${base}/transfers/{dataTransferId}`,
  request: { params: z.object({ dataTransferId: z.string() }) },
  responses: { 200: Any },
})
const transfersList = createRoute({
  operationId: 'datatransfer.transfers.list',
  method: 'get',
  path: `${base}/transfers`,
  request: {
    query: z.object({
      customerId: z.string().optional(),
      oldOwnerUserId: z.string().optional(),
      newOwnerUserId: z.string().optional(),
      status: z.string().optional(),
      ...Paging,
    }),
  },
  responses: { 200: Any },
})

function application(app: (typeof TRANSFER_APPS)[number]) {
  const body = {
    kind: 'admin#datatransfer#ApplicationResource',
    id: app.id,
    name: app.name,
    transferParams: app.transferParams.map((p) => ({ key: p.key, value: [...p.value] })),
  }
  return { ...body, etag: etag(body) }
}

function checkCustomer(c: WorldContext, id: string | undefined) {
  if (id !== undefined && id !== 'my_customer' && id !== customerId(c.var.world.db)) {
    throw new GoogleApiError('PERMISSION_DENIED', 'forbidden', 'Not Authorized to access this resource/api')
  }
}

function transferResource(c: WorldContext, row: TransferRow) {
  const db = c.var.world.db
  const body = {
    kind: 'admin#datatransfer#DataTransfer',
    id: row.id,
    oldOwnerUserId: googleUserId(db, row.oldOwnerId),
    newOwnerUserId: googleUserId(db, row.newOwnerId),
    applicationDataTransfers: appsOf(row),
    overallTransferStatusCode: row.status,
    requestTime: new Date(row.requestMs).toISOString(),
  }
  return { ...body, etag: etag(body) }
}

/** A user named by numeric id (as the API documents) or by primary address, who must be an account of the domain. */
function owner(c: WorldContext, key: unknown, field: string): WorldUserRow {
  if (typeof key !== 'string' || key === '') throw invalid(field)
  try {
    return userByKey(c, key)
  } catch {
    throw invalid(field)
  }
}

/** The body's applicationDataTransfers, checked: known applications, known parameters and values, no repeats. */
function requestedApps(raw: unknown): AppTransfer[] {
  if (!Array.isArray(raw) || raw.length === 0) throw invalid('applicationDataTransfers')
  const seen = new Set<string>()
  return raw.map((entry, i) => {
    const e = (entry ?? {}) as Record<string, unknown>
    const app = TRANSFER_APPS.find((a) => a.id === String(e.applicationId ?? ''))
    if (!app || seen.has(app.id)) throw invalid(`applicationDataTransfers[${i}].applicationId`)
    seen.add(app.id)
    const params = (e.applicationTransferParams ?? []) as unknown
    if (!Array.isArray(params)) throw invalid(`applicationDataTransfers[${i}].applicationTransferParams`)
    const checked: TransferParam[] = params.map((p, j) => {
      const { key, value } = (p ?? {}) as { key?: unknown; value?: unknown }
      const allowed = app.transferParams.find((t) => t.key === key)
      const values = Array.isArray(value) ? value : []
      if (!allowed || values.length === 0 || values.some((v) => !(allowed.value as readonly unknown[]).includes(v))) {
        throw invalid(`applicationDataTransfers[${i}].applicationTransferParams[${j}]`)
      }
      return { key: key as string, value: [...new Set(values as string[])] }
    })
    return { applicationId: app.id, applicationTransferParams: checked, applicationTransferStatus: 'completed' }
  })
}

/** Runs one application's transfer now. Deviation: Google completes transfers in minutes to days; here at once. */
function runTransfer(c: WorldContext, app: AppTransfer, from: WorldUserRow, to: WorldUserRow) {
  const db = c.var.world.db
  if (app.applicationId === DRIVE_APP) {
    const asked = app.applicationTransferParams.find((p) => p.key === 'PRIVACY_LEVEL')?.value
    // Google's default when PRIVACY_LEVEL is absent: shared files only.
    const levels = new Set<PrivacyLevel>((asked ?? ['SHARED']) as PrivacyLevel[])
    transferDriveFiles(db, from.id, to.id, levels)
  } else if (app.applicationId === CALENDAR_APP) {
    const release = app.applicationTransferParams.find((p) => p.key === 'RELEASE_RESOURCES')?.value
    transferCalendarEvents(db, from.id, to.id, release?.[0] === 'TRUE')
  }
}

/**
 * Admin SDK Data Transfer API: the applications that can move a user's data, and transfers of Drive files and
 * Calendar events from one account to another (an administrator's offboarding step). Admins only.
 */
export const dataTransferRouter = createGoogleRouter()
  .openapi(appsList, (c) => {
    requireAdmin(c)
    const q = c.req.valid('query')
    checkCustomer(c, q.customerId)
    const { page, nextPageToken } = pageOf(TRANSFER_APPS, q.maxResults ?? 100, q.pageToken)
    const body = { kind: 'admin#datatransfer#applicationsList', applications: page.map(application) }
    return c.json({ ...body, etag: etag(body), ...(nextPageToken ? { nextPageToken } : {}) }, 200)
  })
  .openapi(appsGet, (c) => {
    requireAdmin(c)
    const app = TRANSFER_APPS.find((a) => a.id === c.req.valid('param').applicationId)
    if (!app) throw new GoogleApiError('NOT_FOUND', 'notFound', 'Resource Not Found: applicationId')
    return c.json(application(app), 200)
  })
  .openapi(transfersInsert, (c) => {
    requireAdmin(c)
    const b = c.req.valid('json')
    const from = owner(c, b.oldOwnerUserId, 'oldOwnerUserId')
    const to = owner(c, b.newOwnerUserId, 'newOwnerUserId')
    if (from.id === to.id) throw invalid('newOwnerUserId')
    // The destination must be able to own what it receives.
    if (!isActive(c.var.world.db, to.id)) throw invalid('newOwnerUserId')
    const apps = requestedApps(b.applicationDataTransfers)
    const row = c.var.world.tx((db) => {
      for (const app of apps) runTransfer(c, app, from, to)
      const r: TransferRow = {
        id: urlSafeId(db, 'identity.transfer', 44),
        oldOwnerId: from.id,
        newOwnerId: to.id,
        applications: JSON.stringify(apps),
        status: 'completed',
        requestMs: nowMs(db),
      }
      insertTransfer(db, r)
      return r
    })
    return c.json(transferResource(c, row), 200)
  })
  .openapi(transfersGet, (c) => {
    requireAdmin(c)
    const row = findTransfer(c.var.world.db, c.req.valid('param').dataTransferId)
    if (!row) throw new GoogleApiError('NOT_FOUND', 'notFound', 'Resource Not Found: dataTransferId')
    return c.json(transferResource(c, row), 200)
  })
  .openapi(transfersList, (c) => {
    requireAdmin(c)
    const q = c.req.valid('query')
    checkCustomer(c, q.customerId)
    const db = c.var.world.db
    const idOf = (key: string | undefined) => (key === undefined ? undefined : owner(c, key, 'userId').id)
    const oldId = idOf(q.oldOwnerUserId)
    const newId = idOf(q.newOwnerUserId)
    const rows = listTransfers(db).filter(
      (r) =>
        (oldId === undefined || r.oldOwnerId === oldId) &&
        (newId === undefined || r.newOwnerId === newId) &&
        (q.status === undefined || r.status === q.status),
    )
    const { page, nextPageToken } = pageOf(rows, q.maxResults ?? 100, q.pageToken)
    const dataTransfers = page.map((r) => transferResource(c, r))
    const body = { kind: 'admin#datatransfer#dataTransfersList', dataTransfers }
    return c.json({ ...body, etag: etag(body), ...(nextPageToken ? { nextPageToken } : {}) }, 200)
  })
