import type { z } from 'zod'
import { services } from '../server/registry.ts'
import { registeredOperationIds } from '../server/coverage.ts'
import type { GoogleSpecMethod } from '../envs/core/spec-method-google.ts'
import type { SlackSpecMethod } from '../envs/core/spec-method-slack.ts'
import * as gmailSchemas from '../envs/gmail/api/schemas.gen.ts'
import * as driveSchemas from '../envs/drive/api/schemas.gen.ts'
import { docsSchemas } from '../envs/docs/api/schemas.gen.ts'
import * as calendarSchemas from '../envs/calendar/api/schemas.gen.ts'
import { approxTokens, dropNulls, zodToToolSchema, type JsonSchema } from './tool-schema.ts'
import {
  LOW_PRIORITY,
  MAX_TOOLS,
  OUTPUT_ONLY,
  offered,
  SLACK_DESCRIPTIONS,
  TOOL_TOKEN_BUDGET,
  type ToolScope,
} from './tool-select.ts'

/** An OpenAI function-calling tool definition. */
export type ToolDef = {
  type: 'function'
  function: { name: string; description: string; parameters: Record<string, unknown> }
}

/** A resolved HTTP request a tool call turns into. */
export type HttpCall = { method: string; path: string; query?: Record<string, unknown>; body?: unknown }

export const HTTP_TOOL: ToolDef = {
  type: 'function',
  function: {
    name: 'http_request',
    description:
      'Calls the workspace REST APIs (Gmail /gmail/v1, Calendar /calendar/v3, Drive /drive/v3, Docs /v1/documents, ' +
      'Slack /api/<method>) as the current user. Returns the status and the response body.',
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

const schemaTables: Record<string, Record<string, unknown>> = {
  gmail: gmailSchemas,
  drive: driveSchemas,
  get docs() {
    return docsSchemas()
  },
  calendar: calendarSchemas,
}
const MAX_DESC = 600
const MAX_PARAM_DESC = 300

/** Typed tool names: method ids with dots as `__` (OpenAI names allow [a-zA-Z0-9_-]). */
export const toolName = (methodId: string) => methodId.replace(/\./g, '__')

/** A typed tool and the method it calls. */
export type Typed =
  | { def: ToolDef; family: 'google'; method: GoogleSpecMethod }
  | { def: ToolDef; family: 'slack'; method: SlackSpecMethod }

/** Google's standard `fields` parameter (partial responses), offered on every Google tool. */
const FIELDS_PARAM = {
  type: 'string',
  description: 'Selector of the response fields to return, e.g. "files(id,name,parents,owners)" or "*" for all.',
}

function bodySchema(service: string, name: string | undefined): JsonSchema | undefined {
  if (!name) return undefined
  const schema = schemaTables[service]?.[name]
  if (!schema) return { type: 'object', description: `${name} resource`, additionalProperties: true }
  const js = zodToToolSchema(schema as z.ZodType)
  const props = js.properties as Record<string, unknown> | undefined
  for (const field of OUTPUT_ONLY[`${service}.${name}`] ?? []) delete props?.[field]
  if (Array.isArray(js.required)) js.required = js.required.filter((r: string) => !props || r in props)
  js.description ??= `${name} resource`
  return js
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)

/**
 * Drive's file methods also take content: `media` is sent as the file's new bytes (`uploadType=media` on the method's
 * upload path). Metadata cannot travel with it (that needs a multipart body), so `requestBody` must then be empty.
 */
const offersMedia = (service: string, m: GoogleSpecMethod) => service === 'drive' && m.uploadPath !== undefined
const MEDIA_PARAM = {
  type: 'string',
  description: 'File content to upload as is (text). When given, requestBody must be {} (no metadata with it).',
}

function googleTool(service: string, m: GoogleSpecMethod): ToolDef {
  const properties: Record<string, unknown> = {}
  const required: string[] = []
  for (const [p, spec] of Object.entries(m.parameters ?? {})) {
    // Deprecated parameters cost tokens and invite mistakes; a call may still pass them (they reach the API).
    if (/^deprecated/i.test(spec.description) && !spec.required) continue
    const t =
      spec.type === 'integer'
        ? 'integer'
        : spec.type === 'boolean'
          ? 'boolean'
          : spec.type === 'number'
            ? 'number'
            : 'string'
    const item: Record<string, unknown> = { type: t }
    if (spec.enum) item.enum = [...spec.enum]
    const prop: Record<string, unknown> = spec.repeated ? { type: 'array', items: item } : item
    prop.description = clip(spec.description || p, MAX_PARAM_DESC)
    if (spec.default !== undefined)
      prop.default = t === 'boolean' ? spec.default === 'true' : t === 'integer' ? Number(spec.default) : spec.default
    properties[p] = prop
    if (spec.required && spec.location === 'path' && spec.default === undefined) required.push(p)
  }
  if (!m.mediaDownload || m.response) properties.fields ??= FIELDS_PARAM
  // alt=media is a global (not per-method) parameter in discovery: offer it where the method can download content.
  if (m.mediaDownload)
    properties.alt ??= { type: 'string', enum: ['json', 'media'], description: 'media: the file content' }
  const body = bodySchema(service, m.request)
  if (body) {
    properties.requestBody = body
    required.push('requestBody')
  }
  if (offersMedia(service, m)) properties.media = MEDIA_PARAM
  const description = clip(m.description || `${m.id} (${m.httpMethod} ${m.path})`, MAX_DESC)
  return {
    type: 'function',
    function: { name: toolName(m.id), description, parameters: { type: 'object', properties, required } },
  }
}

function slackTool(m: SlackSpecMethod): ToolDef {
  const properties: Record<string, unknown> = {}
  const required: string[] = []
  for (const [p, spec] of Object.entries(m.parameters ?? {})) {
    if (p === 'token') continue
    const t = spec.type === 'integer' || spec.type === 'boolean' || spec.type === 'number' ? spec.type : 'string'
    properties[p] = { type: t, description: clip(spec.description || p, MAX_PARAM_DESC) }
    if (spec.required) required.push(p)
  }
  const description = clip(m.description || SLACK_DESCRIPTIONS[m.id] || `Slack Web API method ${m.id}.`, MAX_DESC)
  return {
    type: 'function',
    function: { name: toolName(m.id), description, parameters: { type: 'object', properties, required } },
  }
}

const cache = new Map<string, Typed[]>()

/** One tool per implemented (registered) method of the given services that an assistant may use (see tool-select). */
export function typedTools(serviceNames: readonly string[], scope: ToolScope = {}): Typed[] {
  const key = `${[...serviceNames].sort().join(',')}|${scope.admin ? 'admin' : ''}`
  const hit = cache.get(key)
  if (hit) return hit
  const out: Typed[] = []
  for (const s of services) {
    if (!serviceNames.includes(s.name)) continue
    const registered = new Set(registeredOperationIds(s))
    for (const m of s.specMethods) {
      if (!registered.has(m.id) || !offered(m.id, scope)) continue
      if (s.family === 'slack')
        out.push({ def: slackTool(m as SlackSpecMethod), family: 'slack', method: m as SlackSpecMethod })
      else out.push({ def: googleTool(s.name, m as GoogleSpecMethod), family: 'google', method: m as GoogleSpecMethod })
    }
  }
  // Over the limits (count or token budget): drop the niche groups in their documented order until the list fits.
  let kept = out
  const fits = (ts: Typed[]) => ts.length <= MAX_TOOLS && approxTokens(ts.map((t) => t.def)) <= TOOL_TOKEN_BUDGET
  for (const low of LOW_PRIORITY) {
    if (fits(kept)) break
    kept = kept.filter((t) => !low.test(t.method.id))
  }
  cache.set(key, kept)
  return kept
}

/**
 * Turns a typed tool call into an HTTP call; throws a readable error for bad arguments. `null` values mean
 * "not given" (strict-mode models send them for optional parameters).
 */
export function typedCall(t: Typed, rawArgs: Record<string, unknown>): HttpCall {
  const args = dropNulls(rawArgs) as Record<string, unknown>
  if (t.family === 'slack') {
    // Older callers wrapped Slack arguments in `args`; both shapes reach the method.
    const { args: wrapped, ...rest } = args
    const merged =
      wrapped && typeof wrapped === 'object' && !Array.isArray(wrapped)
        ? { ...(wrapped as Record<string, unknown>), ...rest }
        : args
    return { method: 'POST', path: `/api/${t.method.id}`, body: merged }
  }
  const m = t.method
  let path = m.path
  const query: Record<string, unknown> = {}
  for (const [p, spec] of Object.entries(m.parameters)) {
    const v = args[p] ?? (spec.location === 'path' ? spec.default : undefined)
    if (spec.location === 'path') {
      if (v === undefined || v === '') throw new Error(`missing required path parameter "${p}"`)
      path = path.replace(new RegExp(`\\{\\+?${p}\\}`), encodeURIComponent(String(v)))
    } else if (v !== undefined) query[p] = v
  }
  if (args.fields !== undefined && !('fields' in m.parameters)) query.fields = args.fields
  if (m.mediaDownload && args.alt !== undefined && !('alt' in m.parameters)) query.alt = args.alt
  if (args.media !== undefined && m.uploadPath && path.startsWith('/drive/')) {
    const meta = args.requestBody
    if (meta && typeof meta === 'object' && Object.keys(meta).length) throw new Error('send media with requestBody {}')
    return {
      method: m.httpMethod,
      path: `/upload${path}`,
      query: { ...query, uploadType: 'media' },
      body: String(args.media),
    }
  }
  return { method: m.httpMethod, path, query, body: args.requestBody }
}

/**
 * The typed tool call equivalent to a REST call (for replaying `http_request` programs on the typed profile):
 * path parameters from the URL, the rest of the query as parameters, the JSON body as `requestBody` (Google)
 * or merged into the arguments (Slack). Undefined when no offered tool serves the request.
 */
export function toTypedCall(
  tools: readonly Typed[],
  call: HttpCall,
): { tool: string; arguments: Record<string, unknown> } | undefined {
  const [pathname, search = ''] = call.path.split('?')
  const query: Record<string, unknown> = Object.fromEntries(new URLSearchParams(search))
  Object.assign(query, call.query ?? {})
  if (pathname!.startsWith('/api/')) {
    const t = tools.find((x) => x.family === 'slack' && x.method.id === pathname!.slice(5))
    if (!t) return undefined
    const body = call.body && typeof call.body === 'object' ? (call.body as Record<string, unknown>) : {}
    return { tool: t.def.function.name, arguments: { ...query, ...body } }
  }
  const verb = call.method.toUpperCase()
  // A Drive media upload is the method's own tool with `media` (see offersMedia).
  const upload = /^\/upload(\/drive\/.*)$/.exec(pathname!)
  if (upload && query.uploadType === 'media' && typeof call.body === 'string') {
    const { uploadType: _u, ...rest } = query
    const typed = toTypedCall(tools, { method: call.method, path: upload[1]!, query: rest })
    return typed && { tool: typed.tool, arguments: { ...typed.arguments, media: call.body } }
  }
  const normal = pathname!.replace(/:([A-Za-z]+)$/, '/~$1')
  for (const t of tools) {
    if (t.family !== 'google' || t.method.httpMethod.toUpperCase() !== verb) continue
    const names: string[] = []
    const source = t.method.path
      .replace(/:([A-Za-z]+)$/, '/~$1')
      .split(/(\{\+?[^}]+\})/)
      .map((part) => {
        const p = /^\{\+?([^}]+)\}$/.exec(part)
        if (p) {
          names.push(p[1]!)
          return '([^/]+)'
        }
        return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      })
      .join('')
    const match = new RegExp(`^${source}$`).exec(normal)
    if (!match) continue
    const args: Record<string, unknown> = { ...query }
    names.forEach((n, i) => {
      args[n] = decodeURIComponent(match[i + 1]!)
    })
    if (call.body !== undefined && call.body !== null) args.requestBody = call.body
    else if (t.method.request) args.requestBody = {}
    return { tool: t.def.function.name, arguments: args }
  }
  return undefined
}
