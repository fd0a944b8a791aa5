import { createHash } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { getMeta } from '../../core/clock.ts'
import { selectRows, type Db } from '../../core/db.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import { identityUserSchemas, identityUserSchemaValues } from '../schema.ts'

// Custom user schemas (Directory `schemas`) and users' values in them (the User resource's `customSchemas`).
// A schema's fields keep their `fieldId` while they keep their name; users' values are stored by schema id and field
// id, so a renamed schema keeps its values and a field dropped from a schema takes its values with it.

export const FIELD_TYPES = ['STRING', 'INT64', 'BOOL', 'DOUBLE', 'EMAIL', 'PHONE', 'DATE'] as const
export type FieldType = (typeof FIELD_TYPES)[number]
export const READ_ACCESS = ['ALL_DOMAIN_USERS', 'ADMINS_AND_SELF'] as const

export type FieldSpec = {
  fieldId: string
  fieldName: string
  fieldType: FieldType
  displayName: string
  multiValued: boolean
  indexed: boolean
  readAccessType: (typeof READ_ACCESS)[number]
  numericIndexingSpec?: { minValue?: number; maxValue?: number }
}
export type UserSchema = { schemaId: string; schemaName: string; displayName: string; fields: FieldSpec[] }
/** One value of a field as the API shows it: a scalar, or for a multi-valued field `{ value, type?, customType? }`. */
export type Scalar = string | number | boolean
export type MultiValue = { value: Scalar; type?: string; customType?: string }
export type FieldValue = Scalar | MultiValue[]

const invalid = (what: string) => new GoogleApiError('INVALID_ARGUMENT', 'invalid', `Invalid Input: ${what}`)

const rowOf = (r: typeof identityUserSchemas.$inferSelect): UserSchema => ({
  ...r,
  fields: JSON.parse(r.fields) as FieldSpec[],
})

export const listSchemas = (db: Db): UserSchema[] =>
  selectRows(db, identityUserSchemas, {})
    .map(rowOf)
    .sort((a, b) => a.schemaName.localeCompare(b.schemaName))

/** A schema by `schemaKey`: its id, or its name (any letter case). */
export function findSchema(db: Db, key: string): UserSchema | undefined {
  const all = listSchemas(db)
  return all.find((s) => s.schemaId === key) ?? all.find((s) => s.schemaName.toLowerCase() === key.toLowerCase())
}

/** 22 base64 characters and `==`, as Google's schema and field ids look, from the world's id salt. */
function idOf(db: Db, ...parts: string[]): string {
  const salt = getMeta(db, 'id_salt') ?? ''
  return createHash('sha256')
    .update([salt, ...parts].join('\u0000'))
    .digest()
    .subarray(0, 16)
    .toString('base64')
}

/** A schema id no schema holds: from the name, and a counter past ids already used. */
export function newSchemaId(db: Db, name: string): string {
  const taken = new Set(listSchemas(db).map((s) => s.schemaId))
  for (let n = 0; ; n++) {
    const id = idOf(db, 'user-schema', name.toLowerCase(), String(n))
    if (!taken.has(id)) return id
  }
}

export const fieldIdOf = (db: Db, schemaId: string, fieldName: string) =>
  idOf(db, 'user-schema-field', schemaId, fieldName.toLowerCase())

export function saveSchema(db: Db, s: UserSchema) {
  const row = { ...s, fields: JSON.stringify(s.fields) }
  db.insert(identityUserSchemas)
    .values(row)
    .onConflictDoUpdate({ target: identityUserSchemas.schemaId, set: row })
    .run()
  // Values of fields the schema no longer has go with them.
  const ids = new Set(s.fields.map((f) => f.fieldId))
  for (const v of selectRows(db, identityUserSchemaValues, { schemaId: s.schemaId })) {
    const kept = Object.fromEntries(Object.entries(parseValues(v.values)).filter(([id]) => ids.has(id)))
    saveUserValues(db, v.userId, s.schemaId, kept)
  }
}

/** Deletes a schema and every user's values in it. */
export function deleteSchema(db: Db, schemaId: string) {
  db.delete(identityUserSchemas).where(eq(identityUserSchemas.schemaId, schemaId)).run()
  db.delete(identityUserSchemaValues).where(eq(identityUserSchemaValues.schemaId, schemaId)).run()
}

const parseValues = (text: string) => JSON.parse(text) as Record<string, FieldValue>

/** A user's values in one schema, by field id. */
export const userValues = (db: Db, userId: string, schemaId: string): Record<string, FieldValue> => {
  const row = selectRows(db, identityUserSchemaValues, { userId, schemaId })[0]
  return row ? parseValues(row.values) : {}
}

export function saveUserValues(db: Db, userId: string, schemaId: string, values: Record<string, FieldValue>) {
  const where = and(eq(identityUserSchemaValues.userId, userId), eq(identityUserSchemaValues.schemaId, schemaId))
  db.delete(identityUserSchemaValues).where(where).run()
  if (Object.keys(values).length > 0) {
    db.insert(identityUserSchemaValues)
      .values({ userId, schemaId, values: JSON.stringify(values) })
      .run()
  }
}

/** The user's `customSchemas` (by schema and field name), with only the fields `visible` lets through. */
export function customSchemasOf(
  db: Db,
  userId: string,
  include: (s: UserSchema) => boolean = () => true,
  visible: (f: FieldSpec) => boolean = () => true,
): Record<string, Record<string, FieldValue>> {
  const out: Record<string, Record<string, FieldValue>> = {}
  for (const s of listSchemas(db).filter(include)) {
    const values = userValues(db, userId, s.schemaId)
    const shown = s.fields.filter((f) => visible(f) && values[f.fieldId] !== undefined)
    if (shown.length > 0) out[s.schemaName] = Object.fromEntries(shown.map((f) => [f.fieldName, values[f.fieldId]!]))
  }
  return out
}

/** Every value of a user's indexed fields, by `schemaName.fieldName`, as text (users.list `query`). */
export function searchableValues(db: Db, userId: string): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const s of listSchemas(db)) {
    const values = userValues(db, userId, s.schemaId)
    for (const f of s.fields.filter((x) => x.indexed)) {
      const v = values[f.fieldId]
      const list = v === undefined ? [] : Array.isArray(v) ? v.map((x) => x.value) : [v]
      out[`${s.schemaName}.${f.fieldName}`] = list.map(String)
    }
  }
  return out
}

/** `schemaName.fieldName` of each indexed field: what users.list `query` may name. */
export const indexedFieldNames = (db: Db) =>
  listSchemas(db).flatMap((s) => s.fields.filter((f) => f.indexed).map((f) => `${s.schemaName}.${f.fieldName}`))

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const PHONE = /^\+?[0-9 ().-]*[0-9][0-9 ().-]*$/

/**
 * One scalar value checked against the field's type and kept in the form the API answers with: INT64 as a decimal
 * string (JSON's form of a 64-bit integer), DOUBLE as a number, BOOL as a boolean, the others as strings.
 * Deviation (unverified): the forms Google answers with and the exact checks of EMAIL and PHONE values.
 */
export function checkScalar(f: FieldSpec, v: unknown, at: string): Scalar {
  const bad = () => invalid(`Invalid value for ${f.fieldType} field: ${at}`)
  switch (f.fieldType) {
    case 'STRING':
      if (typeof v !== 'string') throw bad()
      return v
    case 'INT64': {
      const text = typeof v === 'number' && Number.isInteger(v) ? String(v) : typeof v === 'string' ? v.trim() : ''
      if (!/^-?\d{1,19}$/.test(text)) throw bad()
      const n = BigInt(text)
      if (n > 9223372036854775807n || n < -9223372036854775808n) throw bad()
      return n.toString()
    }
    case 'DOUBLE': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN
      if (!Number.isFinite(n)) throw bad()
      return n
    }
    case 'BOOL':
      if (typeof v === 'boolean') return v
      if (v === 'true' || v === 'false') return v === 'true'
      throw bad()
    case 'EMAIL':
      if (typeof v !== 'string' || !EMAIL.test(v)) throw bad()
      return v
    case 'PHONE':
      if (typeof v !== 'string' || !PHONE.test(v)) throw bad()
      return v
    case 'DATE': {
      if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) throw bad()
      const d = new Date(`${v}T00:00:00Z`)
      if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) throw bad()
      return v
    }
  }
}

/** The kinds a multi-valued custom field's `type` may name (as the standard multi-valued user fields). */
const VALUE_TYPES = ['work', 'home', 'other', 'custom']

/** A field's value from a User body, checked: a scalar, or for a multi-valued field a list of `{ value, ... }`. */
export function checkFieldValue(f: FieldSpec, v: unknown, at: string): FieldValue {
  if (!f.multiValued) {
    if (Array.isArray(v) || (v !== null && typeof v === 'object')) throw invalid(`${at} is not multi-valued`)
    return checkScalar(f, v, at)
  }
  if (!Array.isArray(v)) throw invalid(`${at} is multi-valued: give a list of { value }`)
  return v.map((item, i) => {
    const o = item && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>) : undefined
    if (!o || o.value === undefined) throw invalid(`${at}[${i}].value`)
    const type = o.type
    if (type !== undefined && (typeof type !== 'string' || !VALUE_TYPES.includes(type))) throw invalid(`${at}.type`)
    if (o.customType !== undefined && typeof o.customType !== 'string') throw invalid(`${at}.customType`)
    return {
      value: checkScalar(f, o.value, `${at}[${i}]`),
      ...(type ? { type } : {}),
      ...(typeof o.customType === 'string' ? { customType: o.customType } : {}),
    }
  })
}

/**
 * The values a User body's `customSchemas` sets, checked, by schema id: each schema's fields merged into what the
 * user holds (a field given `null`, or a schema given `null`, is cleared). An unknown schema or field is 400.
 */
export function customValuesIn(
  db: Db,
  userId: string | undefined,
  body: unknown,
): Map<string, Record<string, FieldValue>> {
  const out = new Map<string, Record<string, FieldValue>>()
  if (body === undefined) return out
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid('customSchemas')
  for (const [name, given] of Object.entries(body as Record<string, unknown>)) {
    const schema = listSchemas(db).find((s) => s.schemaName.toLowerCase() === name.toLowerCase())
    if (!schema) throw invalid(`customSchemas: unknown schema ${name}`)
    const values = given === null ? {} : { ...(userId ? userValues(db, userId, schema.schemaId) : {}) }
    if (given !== null && (typeof given !== 'object' || Array.isArray(given))) throw invalid(`customSchemas.${name}`)
    for (const [fieldName, v] of Object.entries((given ?? {}) as Record<string, unknown>)) {
      const f = schema.fields.find((x) => x.fieldName.toLowerCase() === fieldName.toLowerCase())
      if (!f) throw invalid(`customSchemas.${name}: unknown field ${fieldName}`)
      if (v === null || (Array.isArray(v) && v.length === 0)) delete values[f.fieldId]
      else values[f.fieldId] = checkFieldValue(f, v, `customSchemas.${name}.${fieldName}`)
    }
    out.set(schema.schemaId, values)
  }
  return out
}

/** The dump's `schemas`: each schema by name, with its fields (shape in ../state.ts). */
export function schemaEntities(db: Db) {
  return Object.fromEntries(
    listSchemas(db).map((s) => [
      s.schemaName,
      {
        schemaName: s.schemaName,
        displayName: s.displayName,
        fields: s.fields.map((f) => ({
          fieldName: f.fieldName,
          fieldType: f.fieldType,
          multiValued: f.multiValued,
          indexed: f.indexed,
          readAccessType: f.readAccessType,
        })),
      },
    ]),
  )
}
