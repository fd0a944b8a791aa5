import { createRoute, z } from '@hono/zod-openapi'
import { and, eq } from 'drizzle-orm'
import type { Db } from '../../core/db.ts'
import { createGoogleRouter } from '../../core/http.ts'
import { badRequest } from '../../core/errors/google.ts'
import { decodePageToken, encodePageToken } from '../../core/paging.ts'
import { findUserByAddress } from '../../core/users.ts'
import { LabelList, ModifyLabelsRequest, ModifyLabelsResponse } from '../api/schemas.gen.ts'
import { fileLabels } from '../schema.ts'
import { driveUser } from '../map.ts'
import { recordChange } from '../store/files.ts'
import { json, jsonBody, requireItem } from './common.ts'
import { intParam } from '../../core/param-errors.ts'

type Stored = Record<string, { valueType: string; values: string[] }>
type FieldMod = {
  fieldId?: string
  setTextValues?: string[]
  setIntegerValues?: string[]
  setDateValues?: string[]
  setSelectionValues?: string[]
  setUserValues?: string[]
  unsetValues?: boolean
}
type LabelMod = { labelId?: string; removeLabel?: boolean; fieldModifications?: FieldMod[] }

/** A label applied to a file, as `drive#label` with `drive#labelField` values (users as `drive#user`). */
export function toLabel(db: Db, row: typeof fileLabels.$inferSelect, viewerId: string) {
  const fields = Object.fromEntries(
    Object.entries(JSON.parse(row.fields) as Stored).map(([id, f]) => {
      const values =
        f.valueType === 'user'
          ? f.values.map((email) => {
              // A value given by a user's Directory alias shows the user.
              const u = findUserByAddress(db, email)
              return u
                ? driveUser(db, u.id, viewerId)
                : { kind: 'drive#user', displayName: email, emailAddress: email, me: false }
            })
          : f.values
      return [id, { kind: 'drive#labelField', id, valueType: f.valueType, [f.valueType]: values }]
    }),
  )
  return { kind: 'drive#label', id: row.labelId, revisionId: row.revisionId, fields }
}

/** Labels on a file, optionally only those named (`includeLabels` of files.get/list). */
export function labelsOf(db: Db, fileId: string, viewerId: string, only?: string[]) {
  return db
    .select()
    .from(fileLabels)
    .where(eq(fileLabels.fileId, fileId))
    .orderBy(fileLabels.labelId)
    .all()
    .filter((l) => !only || only.includes(l.labelId))
    .map((l) => toLabel(db, l, viewerId))
}

const invalid = (message: string) => badRequest(message, 'invalid')

/** Checks one field modification and returns its stored value (null removes the field). */
function applyField(m: FieldMod): [string, { valueType: string; values: string[] } | null] {
  if (!m || typeof m.fieldId !== 'string' || !/^[\w-]+$/.test(m.fieldId))
    throw invalid('Each field modification needs a fieldId.')
  const sets = (
    ['setTextValues', 'setIntegerValues', 'setDateValues', 'setSelectionValues', 'setUserValues'] as const
  ).filter((k) => m[k] !== undefined)
  if (sets.length + (m.unsetValues ? 1 : 0) !== 1)
    throw invalid(`Field modification for ${m.fieldId} must set exactly one kind of value or unset the values.`)
  if (m.unsetValues) return [m.fieldId, null]
  const key = sets[0]!
  const values = m[key]
  if (!Array.isArray(values) || values.some((v) => typeof v !== 'string'))
    throw invalid(`Invalid values for field ${m.fieldId}.`)
  const type = {
    setTextValues: 'text',
    setIntegerValues: 'integer',
    setDateValues: 'dateString',
    setSelectionValues: 'selection',
    setUserValues: 'user',
  }[key]
  if (type === 'integer' && values.some((v) => !/^-?\d+$/.test(v)))
    throw invalid(`Invalid integer value for field ${m.fieldId}.`)
  if (type === 'dateString' && values.some((v) => !/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(v))))
    throw invalid(`Invalid date value for field ${m.fieldId}.`)
  if (type === 'user' && values.some((v) => !/^[^@\s]+@[^@\s]+$/.test(v)))
    throw invalid(`Invalid user value for field ${m.fieldId}.`)
  return [m.fieldId, { valueType: type, values: type === 'user' ? values.map((v) => v.toLowerCase()) : values }]
}

const Params = z.object({ fileId: z.string() })
const list = createRoute({
  operationId: 'drive.files.listLabels',
  method: 'get',
  path: '/drive/v3/files/{fileId}/listLabels',
  request: {
    params: Params,
    query: z.object({
      maxResults: intParam({ min: 1, max: 100, dflt: 100 }),
      pageToken: z.string().optional(),
    }),
  },
  responses: { 200: json(LabelList) },
})
const modify = createRoute({
  operationId: 'drive.files.modifyLabels',
  method: 'post',
  path: '/drive/v3/files/{fileId}/modifyLabels',
  request: { params: Params, body: jsonBody(ModifyLabelsRequest) },
  responses: { 200: json(ModifyLabelsResponse) },
})

export const labelsRouter = createGoogleRouter()
  .openapi(list, (c) => {
    const q = c.req.valid('query')
    const row = requireItem(c, c.req.valid('param').fileId)
    const all = labelsOf(c.var.world.db, row.id, c.var.user.id)
    const start = Number(decodePageToken<{ o: number }>(q.pageToken)?.o ?? 0)
    const body: Record<string, unknown> = { kind: 'drive#labelList', labels: all.slice(start, start + q.maxResults) }
    if (start + q.maxResults < all.length) body.nextPageToken = encodePageToken({ o: start + q.maxResults })
    return c.json(body as never, 200)
  })
  .openapi(modify, (c) => {
    const row = requireItem(c, c.req.valid('param').fileId, 'writer')
    const b = c.req.valid('json') as { labelModifications?: LabelMod[] }
    const mods = b.labelModifications
    if (!Array.isArray(mods) || mods.length === 0)
      throw badRequest('At least one label modification is required.', 'required')
    // Validate everything first: the request applies all modifications or none.
    const plan = mods.map((m) => {
      if (!m || typeof m.labelId !== 'string' || !/^[\w-]+$/.test(m.labelId))
        throw invalid('Each label modification needs a labelId.')
      if (m.removeLabel && m.fieldModifications?.length)
        throw invalid('A label modification cannot both remove the label and modify its fields.')
      return {
        labelId: m.labelId,
        remove: m.removeLabel === true,
        fields: (m.fieldModifications ?? []).map(applyField),
      }
    })
    const modified = c.var.world.tx((db) => {
      const out: string[] = []
      for (const p of plan) {
        const where = and(eq(fileLabels.fileId, row.id), eq(fileLabels.labelId, p.labelId))
        if (p.remove) {
          db.delete(fileLabels).where(where).run()
          continue
        }
        const current = db.select().from(fileLabels).where(where).get()
        const fields: Stored = current ? JSON.parse(current.fields) : {}
        for (const [id, value] of p.fields) {
          if (value) fields[id] = value
          else delete fields[id]
        }
        const sorted = JSON.stringify(Object.fromEntries(Object.entries(fields).sort(([a], [b]) => a.localeCompare(b))))
        db.insert(fileLabels)
          .values({ fileId: row.id, labelId: p.labelId, revisionId: '1', fields: sorted })
          .onConflictDoUpdate({ target: [fileLabels.fileId, fileLabels.labelId], set: { fields: sorted } })
          .run()
        if (!out.includes(p.labelId)) out.push(p.labelId)
      }
      recordChange(db, row.id)
      return out
    })
    const db = c.var.world.db
    return c.json(
      { kind: 'drive#modifyLabelsResponse', modifiedLabels: labelsOf(db, row.id, c.var.user.id, modified) } as never,
      200,
    )
  })
