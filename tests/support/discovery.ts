import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

// Test-only response validator: checks a JSON body against a schema of the official discovery document
// (types, 64-bit integers as strings, enums, nested $refs) and reports keys the schema does not have.

type Schema = {
  type?: string
  format?: string
  $ref?: string
  properties?: Record<string, Schema>
  items?: Schema
  additionalProperties?: Schema
  enum?: string[]
}
type Doc = { schemas: Record<string, Schema>; resources: unknown }

const cache = new Map<string, Doc>()
const FILES: Record<string, string> = {
  gmail: 'gmail.v1.discovery.json',
  calendar: 'calendar.v3.discovery.json',
  drive: 'drive.v3.discovery.json',
  docs: 'docs.v1.discovery.json',
  directory: 'admin.directory_v1.discovery.json',
}

export function discovery(api: keyof typeof FILES): Doc {
  let doc = cache.get(api)
  if (!doc) {
    doc = JSON.parse(readFileSync(resolve(import.meta.dirname, '..', '..', 'specs', FILES[api]!), 'utf8')) as Doc
    cache.set(api, doc)
  }
  return doc
}

/** Problems found validating `value` against `schemaName` (empty when it conforms). */
export function validateAgainst(api: keyof typeof FILES, schemaName: string, value: unknown): string[] {
  const doc = discovery(api)
  const problems: string[] = []
  const walk = (s: Schema, v: unknown, path: string, depth: number) => {
    if (depth > 40) return
    if (s.$ref) return walk(doc.schemas[s.$ref]!, v, path, depth + 1)
    switch (s.type) {
      case 'object':
        if (typeof v !== 'object' || v === null || Array.isArray(v))
          return void problems.push(`${path}: expected object`)
        for (const [k, x] of Object.entries(v)) {
          const prop = s.properties?.[k] ?? s.additionalProperties
          if (!prop) problems.push(`${path}.${k}: not in schema`)
          else walk(prop, x, `${path}.${k}`, depth + 1)
        }
        return
      case 'array':
        if (!Array.isArray(v)) return void problems.push(`${path}: expected array`)
        v.forEach((x, i) => s.items && walk(s.items, x, `${path}[${i}]`, depth + 1))
        return
      case 'string':
        if (typeof v !== 'string')
          return void problems.push(`${path}: expected string${s.format ? ` (${s.format})` : ''}, got ${typeof v}`)
        if (s.enum && !s.enum.includes(v)) problems.push(`${path}: "${v}" not in enum`)
        if ((s.format === 'int64' || s.format === 'uint64') && !/^-?\d+$/.test(v))
          problems.push(`${path}: not an int64 string`)
        return
      case 'integer':
        if (!Number.isInteger(v)) problems.push(`${path}: expected integer`)
        return
      case 'number':
        if (typeof v !== 'number') problems.push(`${path}: expected number`)
        return
      case 'boolean':
        if (typeof v !== 'boolean') problems.push(`${path}: expected boolean`)
        return
      default:
        return
    }
  }
  const root = doc.schemas[schemaName]
  if (!root) return [`no schema ${schemaName}`]
  walk(root, value, schemaName, 0)
  return problems
}
