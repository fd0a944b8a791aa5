import { describe, expect, test } from 'vitest'
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { withSyncValidation } from '../../envs/core/folded-validation.ts'
import { createGoogleRouter } from '../../envs/core/http.ts'
import { renderError } from '../../server/app.ts'

// A router declared through withSyncValidation checks each route's request parts in one middleware
// (envs/core/folded-validation.ts); every answer must equal what @hono/zod-openapi's own validators give.

type Hooked = { success: boolean; target: string; error?: z.ZodError }

/** Failures: the query's as a Response of its own, the other parts' thrown (as the services' hooks do). */
const defaultHook = (result: Hooked, c: Context) => {
  if (result.success) return
  const issues = result.error?.issues.map((i) => `${i.path.join('.')}:${i.code}`)
  if (result.target === 'query') return c.json({ hook: 'query', issues }, 422)
  throw new HTTPException(409, { message: `${result.target} ${issues?.join(',')}` })
}

const Body = z.object({ name: z.string(), size: z.number().optional() })
const Query = z.object({ n: z.coerce.number().int().optional(), tag: z.array(z.string()).or(z.string()).optional() })
const body = (required: boolean) => ({ required, content: { 'application/json': { schema: Body } } })

const routes = [
  createRoute({
    method: 'post',
    path: '/a/{id}',
    request: { query: Query, params: z.object({ id: z.string().min(2) }), body: body(true) },
    responses: { 200: { description: 'OK' } },
  }),
  createRoute({
    method: 'post',
    path: '/b',
    request: { params: z.object({}), body: body(false) },
    responses: { 200: { description: 'OK' } },
  }),
  createRoute({
    method: 'get',
    path: '/c/{id}/{sub}',
    request: {
      query: z.object({ mode: z.enum(['x', 'y']).default('x') }),
      params: z.object({ id: z.string(), sub: z.string() }),
    },
    responses: { 200: { description: 'OK' } },
  }),
  createRoute({
    method: 'put',
    path: '/d',
    request: { query: z.object({ id: z.string().refine(async (v) => v !== 'no', 'refused') }) },
    responses: { 200: { description: 'OK' } },
  }),
  createRoute({
    method: 'post',
    path: '/e',
    request: { headers: z.object({ 'x-key': z.string() }), body: body(true) },
    responses: { 200: { description: 'OK' } },
  }),
]

/** A route's own hook (the second route's), answering every failure with a Response. */
const ownHook = (result: Hooked, c: Context) =>
  result.success ? undefined : c.json({ own: result.target, n: result.error?.issues.length }, 418)

function app(folded: boolean) {
  const router = new OpenAPIHono({ defaultHook: defaultHook as never })
  const r = folded ? withSyncValidation(router) : router
  routes.forEach((route, i) => {
    const handler = (c: Context) =>
      c.json({
        query: (c.req.valid as (t: string) => unknown)('query') ?? null,
        param: (c.req.valid as (t: string) => unknown)('param') ?? null,
        json: (c.req.valid as (t: string) => unknown)('json') ?? null,
      })
    r.openapi(route as never, handler as never, (i === 1 ? ownHook : undefined) as never)
  })
  const top = new OpenAPIHono()
  top.route('/', r)
  top.onError((err, c) =>
    err instanceof HTTPException
      ? c.json({ status: err.status, message: err.message }, err.status)
      : c.text('500', 500),
  )
  return { top, router: r }
}

const TYPES = [
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8;x=1',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/json ; charset=utf-8',
  'application/json;',
  'application/json ',
  'application/jsonx',
  'application/json5',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
]
const BODIES = [undefined, '', '{"name":"a"}', '{"name":"a","size":2,"extra":1}', '{"name":5}', '{bad', '[]', 'null']
const PATHS = ['/a/id1?n=3', '/a/i?n=3', '/a/id1?n=x', '/a/id1?tag=1&tag=2', '/b', '/b?x=1', '/c/1/2', '/c/1/2?mode=z']

describe('withSyncValidation folds the request validators', () => {
  test('answers every request as the library validators do (status, body)', async () => {
    const [mine, theirs] = [app(true).top, app(false).top]
    const requests: [string, string, string | undefined, string | undefined][] = []
    for (const path of PATHS)
      for (const type of TYPES)
        for (const text of BODIES) requests.push([path.startsWith('/c') ? 'GET' : 'POST', path, type, text])
    for (const path of ['/d?id=ok', '/d?id=no', '/d']) requests.push(['PUT', path, undefined, undefined])
    for (const type of TYPES.slice(0, 4)) for (const text of BODIES) requests.push(['POST', '/e', type, text])
    const answers = async (a: OpenAPIHono, [method, path, type, text]: (typeof requests)[number]) => {
      const headers: Record<string, string> = type ? { 'content-type': type } : {}
      if (path === '/e') headers['x-key'] = 'k'
      const res = await a.request(path, { method, headers, body: method === 'GET' ? undefined : text })
      return `${res.status} ${await res.text()}`
    }
    let differ = 0
    const statuses = new Set<string>()
    for (const r of requests) {
      const [got, want] = [await answers(mine, r), await answers(theirs, r)]
      if (got !== want) differ++
      expect({ r, got }).toEqual({ r, got: want })
      statuses.add(want.slice(0, 3))
    }
    expect(differ).toBe(0)
    // The matrix reaches every kind of answer: handler, parse and JSON errors, the hooks' Responses and the gate.
    expect([...statuses].sort()).toEqual(['200', '400', '409', '415', '418', '422'])
  })

  test('puts one middleware in front of the handler where the library puts one per part', () => {
    const count = (r: OpenAPIHono) => (path: string) => r.routes.filter((x) => x.path === path).length
    const [mine, theirs] = [count(app(true).router), count(app(false).router)]
    // query, path, gate and body → one; path, gate, optional body → one; query and path → one; query → one.
    expect([mine('/a/:id'), theirs('/a/:id')]).toEqual([2, 5])
    expect([mine('/b'), theirs('/b')]).toEqual([2, 4])
    expect([mine('/c/:id/:sub'), theirs('/c/:id/:sub')]).toEqual([2, 3])
    expect([mine('/d'), theirs('/d')]).toEqual([2, 2])
    // Header parameters: declared by the library as before.
    expect([mine('/e'), theirs('/e')]).toEqual([4, 4])
  })

  test('a Google router renders a bad part as before through the one middleware', async () => {
    const router = createGoogleRouter()
    router.openapi(routes[0] as never, ((c: Context) => c.json({ ok: true })) as never)
    const top = new OpenAPIHono()
    top.route('/', router)
    top.onError((err, c) => renderError(err, c))
    expect(router.routes.filter((r) => r.path === '/a/:id')).toHaveLength(2)
    const res = await top.request('/a/x?n=3', {
      method: 'POST',
      body: '{"name":"a"}',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^Invalid value at 'id'/)
  })
})
