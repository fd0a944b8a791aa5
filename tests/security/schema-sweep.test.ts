import { describe, expect, test } from 'vitest'
import { harness, type Harness } from '../../envs/core/testing/harness.ts'
import { countWrites, expectGoogleClientError, watch } from '../support/world-watch.ts'

// A deeper sweep than tests/robustness.test.ts, which sends unknown ids and whole-body garbage: every Google method
// the server's discovery documents describe is called with ids that exist, and with request bodies built from the
// method's own schema where one field at any depth (up to four) has the wrong type or a hostile value, and query
// parameters of the wrong type. Each answer is < 500 in Google's error envelope, and a request that fails changes
// nothing. The bodies come from a seeded generator: the same requests every run.

type Schema = {
  $ref?: string
  type?: string
  enum?: string[]
  format?: string
  items?: Schema
  properties?: Record<string, Schema>
  additionalProperties?: Schema | boolean
  readOnly?: boolean
}
type Method = {
  id: string
  path: string
  httpMethod: string
  parameters?: Record<string, { type?: string; location?: string }>
  parameterOrder?: string[]
  request?: Schema
}
type Doc = { servicePath?: string; schemas: Record<string, Schema>; resources: Record<string, Resource> }
type Resource = { methods?: Record<string, Method>; resources?: Record<string, Resource> }

const APIS = [
  ['gmail', 'v1'],
  ['calendar', 'v3'],
  ['drive', 'v3'],
  ['docs', 'v1'],
] as const

/** Mutations of one field per body, and sampled bodies per method (a batch of many request kinds gets more). */
const MUTATIONS = 24
const BODIES = 2
const BATCH_BODIES = 60

const WRONG: unknown[] = [
  null,
  -1,
  1e308,
  1.5,
  true,
  '',
  'x'.repeat(2000),
  [],
  [null],
  [{}],
  {},
  { a: { b: [{}] } },
  '2026-02-30T25:00:00Z',
  '🙂\u202e\u0000',
  { ['__proto__']: { polluted: 1 } },
]
const QUERY_VALUES: Record<string, string[]> = {
  integer: ['-1', '1e309', 'abc', '99999999999999999999', '1.5'],
  boolean: ['maybe', '2'],
  string: ['', '\u0000', 'x'.repeat(3000), "'; DROP TABLE x; --", '2026-13-45T99:99:99Z'],
}

/** A small deterministic generator (the same requests every run). */
function prng(seed: number) {
  let s = seed >>> 0
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0), s / 2 ** 32)
  return { next, pick: <T>(a: readonly T[]) => a[Math.floor(next() * a.length)]! }
}
type Rng = ReturnType<typeof prng>

/** Fields a client does not set (the server assigns them): left out of sampled bodies. */
const ASSIGNED = new Set(['id', 'etag', 'kind', 'selfLink', 'htmlLink', 'iCalUID', 'historyId', 'threadId'])

/** A plausible value for a string field, by its name, so that a sampled body gets past validation to the handler. */
function stringFor(name: string, rng: Rng): string {
  const n = name.toLowerCase()
  if (n.includes('email') || n === 'value') return 'bob@northwind.test'
  if (n.includes('color')) return rng.pick(['#000000', '#ffffff', '#16a765'])
  if (n.includes('timezone')) return 'Europe/London'
  if (n === 'mimetype') return 'text/plain'
  if (n === 'role') return 'reader'
  if (n === 'type') return 'user'
  if (n === 'date') return '2026-12-02'
  if (n === 'raw') return Buffer.from('To: bob@northwind.test\r\nSubject: hi\r\n\r\nbody').toString('base64url')
  return `v${Math.floor(rng.next() * 100)}`
}

/** A value of the schema's shape: every field of the body, about half of the fields below. */
function sample(schema: Schema | undefined, doc: Doc, rng: Rng, depth = 0, name = ''): unknown {
  if (!schema) return 'x'
  if (schema.$ref) return depth > 4 ? {} : sample(doc.schemas[schema.$ref], doc, rng, depth + 1, name)
  switch (schema.type) {
    case 'string':
      if (schema.enum) return rng.pick(schema.enum)
      if (schema.format === 'date-time') return '2026-12-01T10:00:00Z'
      if (schema.format === 'int64' || schema.format === 'uint64') return '5'
      if (schema.format === 'byte') return 'aGVsbG8='
      return stringFor(name, rng)
    case 'integer':
    case 'number':
      return Math.floor(rng.next() * 5)
    case 'boolean':
      return rng.next() < 0.5
    case 'array':
      return depth > 4 ? [] : [sample(schema.items, doc, rng, depth + 1, name)]
    case 'object': {
      const fields = Object.entries(schema.properties ?? {}).filter(([k, v]) => !v.readOnly && !ASSIGNED.has(k))
      // A union (Docs' Request: one of forty kinds) gets exactly one of its members, so the body reaches its kind.
      if (fields.length > 10 && fields.every(([, v]) => v.$ref)) {
        const [k, v] = rng.pick(fields)
        return { [k]: sample(v, doc, rng, depth + 1, k) }
      }
      const out: Record<string, unknown> = {}
      // Every field of the body itself (a batch's `requests`), about half of those deeper.
      for (const [k, v] of fields) if (depth <= 1 || rng.next() < 0.5) out[k] = sample(v, doc, rng, depth + 1, k)
      return out
    }
    default:
      return 'x'
  }
}

/** Every path to a field of `value`, up to four levels deep. */
function fieldPaths(value: unknown, path: string[] = [], out: string[][] = []): string[][] {
  if (value && typeof value === 'object' && path.length < 4)
    for (const k of Object.keys(value)) {
      out.push([...path, k])
      fieldPaths((value as Record<string, unknown>)[k], [...path, k], out)
    }
  return out
}

function withField(value: unknown, path: string[], field: unknown): unknown {
  const copy = structuredClone(value) as Record<string, unknown>
  let at = copy
  for (const k of path.slice(0, -1)) at = at[k] as Record<string, unknown>
  Object.defineProperty(at, path.at(-1)!, { value: field, enumerable: true, writable: true, configurable: true })
  return copy
}

function methodsOf(doc: Doc): Method[] {
  const out: Method[] = []
  const walk = (resources: Record<string, Resource> | undefined) => {
    for (const r of Object.values(resources ?? {})) {
      out.push(...Object.values(r.methods ?? {}))
      walk(r.resources)
    }
  }
  walk(doc.resources)
  return out.sort((a, b) => a.id.localeCompare(b.id))
}

/** Ids of things that exist in the demo world, by the path parameter that names them. */
async function existingIds(h: Harness): Promise<Record<string, string>> {
  const get = async (path: string) => (await h.call('GET', path)).body
  const messages = await get('/gmail/v1/users/me/messages')
  const files = await get('/drive/v3/files?pageSize=100&fields=files(id,mimeType)')
  const file = files.files.find((f: { mimeType: string }) => !f.mimeType.includes('folder'))
  const doc = files.files.find((f: { mimeType: string }) => f.mimeType === 'application/vnd.google-apps.document')
  const comments = await get(`/drive/v3/files/${file.id}/comments?fields=*`)
  const ids: Record<string, string | undefined> = {
    userId: 'me',
    calendarId: 'primary',
    messageId: messages.messages[0].id,
    threadId: messages.messages[0].threadId,
    labelId: 'INBOX',
    draftId: (await get('/gmail/v1/users/me/drafts')).drafts?.[0]?.id,
    eventId: (await get('/calendar/v3/calendars/primary/events')).items[0].id,
    ruleId: 'user:bob@northwind.test',
    fileId: file.id,
    documentId: doc.id,
    permissionId: (await get(`/drive/v3/files/${file.id}/permissions`)).permissions[0].id,
    commentId: comments.comments?.[0]?.id,
    replyId: comments.comments?.[0]?.replies?.[0]?.id,
    revisionId: (await get(`/drive/v3/files/${file.id}/revisions`)).revisions?.[0]?.id,
    driveId: (await get('/drive/v3/drives')).drives?.[0]?.id,
  }
  expect(ids.messageId && ids.eventId && ids.fileId && ids.documentId && ids.permissionId).toBeTruthy()
  return Object.fromEntries(Object.entries(ids).filter(([, v]) => v !== undefined)) as Record<string, string>
}

/** The id a method's path parameter takes (`id` means the resource the method belongs to). */
function idFor(name: string, method: Method, ids: Record<string, string>): string {
  if (name !== 'id') return ids[name] ?? 'unknown'
  const resource = method.id.split('.').at(-2)
  const byResource: Record<string, string | undefined> = {
    messages: ids.messageId,
    threads: ids.threadId,
    drafts: ids.draftId,
    labels: ids.labelId,
  }
  return byResource[resource ?? ''] ?? 'unknown'
}

async function sweep(api: string, version: string) {
  const h = harness('demo')
  const doc = (await h.call('GET', `/discovery/v1/apis/${api}/${version}/rest`, { token: null })).body as Doc
  const methods = methodsOf(doc)
  expect(methods.length).toBeGreaterThan(2)
  const ids = await existingIds(h)
  const writes = countWrites(h)
  const rng = prng(api.length * 7919)
  let requests = 0
  for (const method of methods) {
    const path = `/${((doc.servicePath ?? '') + method.path).replace(/^\//, '')}`.replace(
      /\{\+?(\w+)\}/g,
      (_, name: string) => encodeURIComponent(idFor(name, method, ids)),
    )
    let implemented = true
    const send = async (label: string, body: unknown, query = '') => {
      if (!implemented) return
      const unchanged = watch(h, writes)
      const json = method.httpMethod === 'GET' || method.httpMethod === 'DELETE' ? undefined : (body ?? {})
      const res = await h.call(method.httpMethod, path + query, json === undefined ? {} : { json })
      // A method the server does not implement answers 501 whatever it is sent (COVERAGE.md lists them).
      if (res.status === 501 && /not implemented/.test(res.text)) return void (implemented = false)
      requests++
      const what = `${method.id} ${label}`
      expectGoogleClientError(res, `${what} ${JSON.stringify(body)?.slice(0, 200)}`)
      if (res.status >= 400) unchanged(`${what} failed (${res.status}) but changed the world`)
    }
    for (const [name, p] of Object.entries(method.parameters ?? {})) {
      if (p.location !== 'query') continue
      const values = QUERY_VALUES[p.type ?? 'string'] ?? QUERY_VALUES.string!
      await send(`?${name}=${values[0]!.slice(0, 20)}`, undefined, `?${name}=${encodeURIComponent(rng.pick(values))}`)
    }
    if (!method.request) continue
    const bodies = method.id.endsWith('.batchUpdate') ? BATCH_BODIES : BODIES
    for (let b = 0; b < bodies; b++) {
      const body = sample(method.request, doc, rng)
      const paths = fieldPaths(body)
      if (!paths.length) {
        await send('a body of the wrong type', rng.pick(WRONG.filter((w) => typeof w !== 'object' || !w)))
        continue
      }
      for (let m = 0; m < MUTATIONS; m++) {
        const field = rng.pick(paths)
        await send(`body.${field.join('.')}`, withField(body, field, rng.pick(WRONG)))
      }
    }
  }
  return requests
}

describe('schema-directed hostile input, with ids that exist', () => {
  for (const [api, version] of APIS) {
    test(`${api} ${version}: wrong-typed fields at any depth answer < 500 and failures change nothing`, async () => {
      expect(await sweep(api, version)).toBeGreaterThan(100)
    }, 300_000)
  }
})
