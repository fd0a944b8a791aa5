import { describe, expect, test } from 'vitest'
import { createRoute, z } from '@hono/zod-openapi'
import { NOT_QUICK, preferSyncParse, quickField } from '../../envs/core/sync-parse.ts'
import { createGoogleRouter } from '../../envs/core/http.ts'
import { renderError } from '../../server/app.ts'

// Route validators parse synchronously first (envs/core/sync-parse.ts); answers must equal the asynchronous parse.

const plain = () => z.object({ n: z.coerce.number().int().min(1), tag: z.enum(['a', 'b']).optional() })

describe('preferSyncParse', () => {
  test("answers what safeParseAsync answers, for valid and invalid input, without zod's async path", async () => {
    const reference = plain()
    const schema = plain()
    preferSyncParse(schema)
    preferSyncParse(schema)
    let syncCalls = 0
    const sync = schema.safeParse.bind(schema)
    schema.safeParse = ((d: unknown, p?: unknown) => (syncCalls++, sync(d, p as never))) as typeof schema.safeParse
    for (const input of [{ n: '3' }, { n: '3', tag: 'b' }, { n: '0' }, { n: 'x', tag: 'c' }, null, 'text']) {
      const [got, want] = [await schema.safeParseAsync(input), await reference.safeParseAsync(input)]
      expect(got.success).toBe(want.success)
      expect(got.data).toEqual(want.data)
      expect(got.error?.issues).toEqual(want.error?.issues)
    }
    expect(syncCalls).toBe(6)
  })

  test('falls back to the asynchronous parse when a schema has an async refinement', async () => {
    const schema = z.object({ id: z.string().refine(async (v) => v.startsWith('ok'), 'bad id') })
    preferSyncParse(schema)
    expect(await schema.safeParseAsync({ id: 'ok1' })).toEqual({ success: true, data: { id: 'ok1' } })
    const failed = await schema.safeParseAsync({ id: 'no' })
    expect(failed.success).toBe(false)
    expect(failed.error?.issues[0]?.message).toBe('bad id')
  })
})

/**
 * Two objects of one shape: `schema` with preferSyncParse, whose calls into zod's own parse are counted, and
 * `reference`, plain zod.
 */
function preferredWithCounter<S extends z.ZodRawShape>(shape: () => S) {
  const reference = z.object(shape())
  const schema = z.object(shape())
  preferSyncParse(schema)
  let calls = 0
  const sync = schema.safeParse.bind(schema)
  schema.safeParse = ((d: unknown, p?: unknown) => (calls++, sync(d, p as never))) as typeof schema.safeParse
  return { schema, reference, zodCalls: () => calls }
}

describe('preferSyncParse plain objects', () => {
  test('answers an object of optional plain strings and booleans as zod does, without running zod', async () => {
    const shape = () => ({
      name: z.string().optional(),
      starred: z.boolean().optional(),
      n: z.number().optional(),
      tags: z.array(z.string()).optional(),
      short: z.string().max(3).optional(),
      mimeType: z.string().optional(),
    })
    const { schema, reference, zodCalls } = preferredWithCounter(shape)
    const quick = [{}, { name: 'a' }, { mimeType: 'm', starred: false, name: 'b' }, JSON.parse('{"starred":true}')]
    const parsed = [
      { name: 1 },
      { starred: 'true' },
      { n: 2 },
      { tags: ['x'] },
      { short: 'long' },
      { name: 'a', other: 1 },
      JSON.parse('{"__proto__":{"name":"x"},"name":"y"}'),
      Object.create({ name: 'inherited' }),
      null,
      [],
      'text',
    ]
    for (const input of [...quick, ...parsed]) {
      const [got, want] = [await schema.safeParseAsync(input), reference.safeParse(input)]
      expect(got.success).toBe(want.success)
      expect(got.data).toEqual(want.data)
      // Same keys in the same order (zod writes them in the shape's order).
      expect(Object.keys(got.data ?? {})).toEqual(Object.keys(want.data ?? {}))
      expect(got.error?.issues).toEqual(want.error?.issues)
    }
    expect(zodCalls()).toBe(parsed.length)
  })

  test('answers optional string enums and quickField keys as zod does, leaving other values to zod', async () => {
    enum Numeric {
      A,
      B,
    }
    const shape = () => ({
      order: z.enum(['startTime', 'updated']).optional(),
      numeric: z.enum(Numeric).optional(),
      flag: quickField(
        z
          .enum(['true', 'false'])
          .optional()
          .transform((v) => (v === undefined ? undefined : v === 'true')),
        (v) => (v === 'true' ? true : v === 'false' ? false : NOT_QUICK),
      ),
      name: z.string().optional(),
    })
    const { schema, reference, zodCalls } = preferredWithCounter(shape)
    const quick = [{ order: 'updated' }, { flag: 'false', name: 'n', order: 'startTime' }, { flag: 'true' }]
    const parsed = [{ order: 'starttime' }, { order: ['updated'] }, { flag: 'TRUE' }, { flag: 1 }, { numeric: 0 }]
    for (const input of [...quick, ...parsed]) {
      const [got, want] = [await schema.safeParseAsync(input), reference.safeParse(input)]
      expect(got).toEqual(want)
      expect(Object.keys(got.data ?? {})).toEqual(Object.keys(want.data ?? {}))
    }
    expect(zodCalls()).toBe(parsed.length)
  })

  test('answers nested objects of plain fields as zod does, leaving anything else in them to zod', async () => {
    const time = () => z.object({ dateTime: z.string().optional(), timeZone: z.string().optional() })
    const shape = () => ({
      summary: z.string().optional(),
      start: time().optional(),
      end: time().optional(),
      source: z
        .object({
          url: z.string().optional(),
          meta: z.object({ note: z.string().optional() }).optional(),
        })
        .optional(),
      checked: z
        .object({ a: z.string().optional() })
        .refine((o) => o.a !== 'no')
        .optional(),
      loose: z.looseObject({ a: z.string().optional() }).optional(),
      count: z.number().optional(),
    })
    const { schema, reference, zodCalls } = preferredWithCounter(shape)
    const quick = [
      { summary: 's', start: { dateTime: 'x' }, end: { dateTime: 'y', timeZone: 'z' } },
      { end: { timeZone: 'z', dateTime: 'y' }, start: {}, summary: 's' },
      { source: { meta: { note: 'n' }, url: 'u' } },
      { source: { meta: {} } },
    ]
    const parsed = [
      { start: { dateTime: 5 } },
      { start: { dateTime: 'x', other: 1 } },
      { start: null },
      { start: [] },
      { start: 'x' },
      { source: { meta: { note: false } } },
      { checked: { a: 'no' } },
      { checked: { a: 'yes' } },
      { loose: { b: 1 } },
      { count: 1, start: { dateTime: 'x' } },
      JSON.parse('{"start":{"__proto__":{"dateTime":"x"}}}'),
      { start: Object.create({ dateTime: 'inherited' }) },
    ]
    for (const input of [...quick, ...parsed]) {
      const [got, want] = [await schema.safeParseAsync(input), reference.safeParse(input)]
      expect(got.success).toBe(want.success)
      expect(got.data).toEqual(want.data)
      // Same keys in the same order at every level (zod writes each object's keys in its shape's order).
      expect(JSON.stringify(got.data)).toBe(JSON.stringify(want.data))
      expect(got.error?.issues).toEqual(want.error?.issues)
    }
    expect(zodCalls()).toBe(parsed.length)
  })

  test('a schema that contains itself is read without recursing forever', async () => {
    const Node: z.ZodType<unknown> = z.object({
      name: z.string().optional(),
      get child() {
        return Node.optional()
      },
    })
    preferSyncParse(Node)
    const input = { name: 'a', child: { name: 'b', child: { name: 'c' } } }
    expect(await Node.safeParseAsync(input)).toEqual(Node.safeParse(input))
  })

  test('leaves schemas with defaulted or other required keys to zod, and objects missing one', async () => {
    const schemas = [
      z.object({ a: z.string() }),
      z.object({ a: z.string().optional(), b: z.string().default('d') }),
      z.object({ a: z.string().min(1), b: z.string().optional() }),
      z.object({ a: z.enum(['x']), b: z.string() }),
    ]
    for (const schema of schemas) {
      preferSyncParse(schema)
      for (const input of [{}, { b: 'v' }, { a: 'x', b: 'v' }, { a: '', b: 'v' }]) {
        const got = await schema.safeParseAsync(input)
        const want = schema.safeParse(input)
        expect(got.success).toBe(want.success)
        expect(got.data).toEqual(want.data)
        expect(got.error?.issues).toEqual(want.error?.issues)
      }
    }
  })

  test('answers required plain strings and booleans (path parameters) as zod does, without running zod', async () => {
    const shape = () => ({
      calendarId: z.string(),
      eventId: z.string(),
      sure: z.boolean(),
      note: z.string().optional(),
    })
    const { schema, reference, zodCalls } = preferredWithCounter(shape)
    const quick = [
      { calendarId: 'a', eventId: 'b', sure: true },
      { sure: false, eventId: 'b', calendarId: 'a' },
      { note: 'n', calendarId: 'a', eventId: 'b', sure: true },
    ]
    const parsed = [
      {},
      { calendarId: 'a', sure: true },
      { calendarId: 'a', eventId: 5, sure: true },
      { calendarId: 'a', eventId: 'b', sure: 'true' },
      { calendarId: 'a', eventId: 'b', sure: true, other: 1 },
      JSON.parse('{"__proto__":{"calendarId":"x"},"eventId":"b","sure":true}'),
      { calendarId: undefined, eventId: 'b', sure: true },
    ]
    for (const input of [...quick, ...parsed]) {
      const [got, want] = [await schema.safeParseAsync(input), reference.safeParse(input)]
      expect(got.success).toBe(want.success)
      expect(JSON.stringify(got.data)).toBe(JSON.stringify(want.data))
      expect(got.error?.issues).toEqual(want.error?.issues)
    }
    expect(zodCalls()).toBe(parsed.length)
  })

  test('answers an empty object as zod answered the first one, when that was an empty object', async () => {
    const flag = () =>
      z
        .enum(['true', 'false'])
        .optional()
        .transform((v) => (v === undefined ? undefined : v === 'true'))
    const count = () =>
      z
        .string()
        .regex(/^\d+$/)
        .optional()
        .transform((v) => (v === undefined ? undefined : Number(v)))
        .refine((v) => v === undefined || v <= 5, 'too many')
    const optional = preferredWithCounter(() => ({ send: flag(), max: count() }))
    for (const input of [{}, {}, { send: 'true' }, {}, { max: '9' }, {}, { max: '2' }]) {
      const [got, want] = [await optional.schema.safeParseAsync(input), optional.reference.safeParse(input)]
      expect(got).toEqual(want)
      expect(Object.keys(got.data ?? {})).toEqual(Object.keys(want.data ?? {}))
    }
    expect(optional.zodCalls()).toBe(4) // the first empty object and the three that name something
    const first = await optional.schema.safeParseAsync({})
    expect(first.data).not.toBe((await optional.schema.safeParseAsync({})).data) // a new object each time
    // Zod's answer to an empty object is not an empty object: every one goes to zod.
    const defaulted = preferredWithCounter(() => ({ send: flag(), max: z.string().default('3') }))
    const required = preferredWithCounter(() => ({ send: flag(), max: z.string() }))
    for (const { schema, reference, zodCalls } of [defaulted, required]) {
      for (let i = 0; i < 3; i++) expect(await schema.safeParseAsync({})).toEqual(reference.safeParse({}))
      expect(zodCalls()).toBe(3)
    }
    const bare = Object.create(null)
    expect(await optional.schema.safeParseAsync(bare)).toEqual(optional.reference.safeParse(bare))
    expect(optional.zodCalls()).toBe(5)
  })
})

describe('createGoogleRouter validation', () => {
  test("validates path and query parameters, sync and async schemas alike, with Google's 400", async () => {
    const router = createGoogleRouter()
      .openapi(
        createRoute({
          method: 'get',
          path: '/t/{n}',
          request: { params: z.object({ n: z.coerce.number().int().min(1) }), query: plain() },
          responses: { 200: { description: 'ok' } },
        }),
        (c) => c.json({ params: c.req.valid('param'), query: c.req.valid('query') }, 200),
      )
      .openapi(
        createRoute({
          method: 'get',
          path: '/a/{id}',
          request: { params: z.object({ id: z.string().refine(async (v) => v.startsWith('ok'), 'bad id') }) },
          responses: { 200: { description: 'ok' } },
        }),
        (c) => c.json(c.req.valid('param'), 200),
      )
    router.onError((err, c) => renderError(err, c))
    const get = async (path: string) => {
      const res = await router.request(path)
      return { status: res.status, body: (await res.json()) as any }
    }
    expect(await get('/t/2?n=4&tag=a')).toEqual({ status: 200, body: { params: { n: 2 }, query: { n: 4, tag: 'a' } } })
    const bad = await get('/t/2?n=0')
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toBe("Invalid value '0'. Values must be within the range: [1, 2147483647]")
    expect(await get('/a/ok7')).toEqual({ status: 200, body: { id: 'ok7' } })
    const refused = await get('/a/nope')
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toBe(`Invalid value at 'id', "nope"`)
  })
})
