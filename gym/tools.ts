import { z } from 'zod'
import { services } from '../server/registry.ts'
import { registeredOperationIds } from '../server/coverage.ts'
import type { GoogleSpecMethod } from '../envs/core/spec-method-google.ts'
import * as gmailSchemas from '../envs/gmail/api/schemas.gen.ts'
import * as driveSchemas from '../envs/drive/api/schemas.gen.ts'
import * as docsSchemas from '../envs/docs/api/schemas.gen.ts'
import * as calendarSchemas from '../envs/calendar/api/schemas.gen.ts'

/** An OpenAI function-calling tool definition. */
export type ToolDef = { type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } }

/** A resolved HTTP request a tool call turns into. */
export type HttpCall = { method: string; path: string; query?: Record<string, unknown>; body?: unknown }

export const HTTP_TOOL: ToolDef = {
  type: 'function',
  function: {
    name: 'http_request',
    description: 'Calls the workspace REST APIs (Gmail /gmail/v1, Calendar /calendar/v3, Drive /drive/v3, Docs /v1/documents, Slack /api/<method>) as the current user. Returns the status and the response body.',
    parameters: {
      type: 'object',
      properties: {
        method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
        path: { type: 'string', description: 'Path such as /gmail/v1/users/me/messages' },
        query: { type: 'object', description: 'Query parameters', additionalProperties: true },
        body: { description: 'JSON request body' },
      },
      required: ['method', 'path'],
    },
  },
}

const schemaTables: Record<string, Record<string, unknown>> = { gmail: gmailSchemas, drive: driveSchemas, docs: docsSchemas, calendar: calendarSchemas }
const MAX_DESC = 1000

/** Typed tool names: method ids with dots as `__` (OpenAI names allow [a-zA-Z0-9_-]). */
export const toolName = (methodId: string) => methodId.replace(/\./g, '__')

type Typed = { def: ToolDef; method: GoogleSpecMethod | { id: string; httpMethod: string; path: string; parameters?: undefined } }

function bodySchema(service: string, name: string | undefined): Record<string, unknown> | undefined {
  if (!name) return undefined
  const schema = schemaTables[service]?.[name]
  if (!schema) return { type: 'object' }
  try {
    const js = z.toJSONSchema(schema as z.ZodType, { unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as Record<string, unknown>
    delete js.$schema
    return js
  } catch {
    return { type: 'object' }
  }
}

const cache = new Map<string, Typed[]>()

/** One tool per implemented (registered) method of the given services. */
export function typedTools(serviceNames: readonly string[]): Typed[] {
  const key = [...serviceNames].sort().join(',')
  const hit = cache.get(key)
  if (hit) return hit
  const out: Typed[] = []
  for (const s of services) {
    if (!serviceNames.includes(s.name)) continue
    const registered = new Set(registeredOperationIds(s))
    for (const m of s.specMethods as readonly GoogleSpecMethod[]) {
      if (!registered.has(m.id)) continue
      const properties: Record<string, unknown> = {}
      const required: string[] = []
      if (s.family === 'slack') {
        properties.args = { type: 'object', description: 'Method arguments', additionalProperties: true }
      } else {
        for (const [p, spec] of Object.entries(m.parameters ?? {})) {
          const t = spec.type === 'integer' ? 'integer' : spec.type === 'boolean' ? 'boolean' : 'string'
          const prop: Record<string, unknown> = spec.repeated ? { type: 'array', items: { type: t } } : { type: t }
          prop.description = spec.description.slice(0, 300)
          if (spec.enum) (spec.repeated ? (prop.items as Record<string, unknown>) : prop).enum = [...spec.enum]
          if (spec.default !== undefined) prop.default = spec.default
          properties[p] = prop
          if (spec.required && spec.location === 'path' && spec.default === undefined) required.push(p)
        }
        const body = bodySchema(s.name, m.request)
        if (body) {
          properties.requestBody = body
          required.push('requestBody')
        }
      }
      out.push({
        def: { type: 'function', function: { name: toolName(m.id), description: (m.description ?? m.id).slice(0, MAX_DESC), parameters: { type: 'object', properties, required } } },
        method: m,
      })
    }
  }
  cache.set(key, out)
  return out
}

/** Turns a typed tool call into an HTTP call; throws a readable error for bad arguments. */
export function typedCall(t: Typed, args: Record<string, unknown>): HttpCall {
  const m = t.method
  if (!m.parameters) return { method: 'POST', path: `/api/${m.id}`, body: (args.args as Record<string, unknown>) ?? {} }
  let path = m.path
  const query: Record<string, unknown> = {}
  for (const [p, spec] of Object.entries(m.parameters)) {
    const v = args[p] ?? (spec.location === 'path' ? spec.default : undefined)
    if (spec.location === 'path') {
      if (v === undefined || v === '') throw new Error(`missing required path parameter "${p}"`)
      path = path.replace(new RegExp(`\\{\\+?${p}\\}`), encodeURIComponent(String(v)))
    } else if (v !== undefined) query[p] = v
  }
  return { method: m.httpMethod, path, query, body: args.requestBody }
}
