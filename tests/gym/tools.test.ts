import { afterAll, describe, expect, it } from 'vitest'
import { Ajv } from 'ajv'
import { loadCorpus } from '../../gym/corpus.ts'
import { createGym, ProfileRefused } from '../../gym/index.ts'
import { typedTools, typedCall, toolName, toTypedCall, type Typed } from '../../gym/tools.ts'
import { approxTokens, strictSchema } from '../../gym/tool-schema.ts'
import { MAX_TOOLS, TOOL_TOKEN_BUDGET } from '../../gym/tool-select.ts'
import { onTypedProfile, runProgramTyped } from '../../gym/typed-replay.ts'
import { parseAction } from '../../gym/actions.ts'

const corpus = loadCorpus()
const bySet = new Map<string, Typed[]>()
for (const t of corpus) bySet.set(t.services.join(','), typedTools(t.services, { admin: t.tags.includes('admin') }))
const everyTool = [...new Map([...bySet.values()].flat().map((t) => [t.def.function.name, t])).values()]

const refs = (v: unknown): string[] => {
  if (!v || typeof v !== 'object') return []
  return Object.entries(v).flatMap(([k, x]) => (k === '$ref' ? [String(x)] : refs(x)))
}

describe('typed tool lists', () => {
  it('offer at most 128 described tools within the token budget for every task', () => {
    expect(corpus.length).toBeGreaterThan(0)
    for (const [services, tools] of bySet) {
      expect(tools.length, services).toBeLessThanOrEqual(MAX_TOOLS)
      expect(approxTokens(tools.map((t) => t.def)), services).toBeLessThanOrEqual(TOOL_TOKEN_BUDGET)
      for (const t of tools) expect(t.def.function.description.trim().length, t.def.function.name).toBeGreaterThan(10)
    }
  })

  it('stay within 128 tools for every combination of services', () => {
    const all = ['gmail', 'drive', 'calendar', 'docs', 'slack']
    for (let mask = 1; mask < 1 << all.length; mask++) {
      const set = all.filter((_, i) => mask & (1 << i))
      expect(typedTools(set).length, set.join(',')).toBeLessThanOrEqual(MAX_TOOLS)
    }
  })

  it('compile every tool schema with ajv, with no $ref left', () => {
    const ajv = new Ajv({ strict: false, allErrors: true })
    expect(everyTool.length).toBeGreaterThan(150)
    for (const t of everyTool) {
      const schema = t.def.function.parameters
      expect(refs(schema), t.def.function.name).toEqual([])
      expect(() => ajv.compile(schema), t.def.function.name).not.toThrow()
    }
  })

  it('offer a strict variant where the schema allows it, which ajv compiles and which requires every property', () => {
    const ajv = new Ajv({ strict: false })
    let strict = 0
    for (const t of everyTool) {
      const s = strictSchema(t.def.function.parameters)
      if (!s) continue
      strict++
      ajv.compile(s)
      expect(s.additionalProperties).toBe(false)
      expect([...(s.required as string[])].sort()).toEqual(Object.keys(s.properties as object).sort())
    }
    expect(strict).toBeGreaterThan(everyTool.length / 2)
  })

  it('leave out admin methods and machinery', () => {
    const names = new Set(typedTools(['slack', 'gmail', 'drive', 'calendar', 'docs']).map((t) => t.method.id))
    for (const id of [
      'admin.users.list',
      'views.open',
      'oauth.v2.access',
      'gmail.users.settings.delegates.create',
      'gmail.users.messages.insert',
      'drive.files.watch',
    ])
      expect(names.has(id), id).toBe(false)
    for (const id of ['conversations.history', 'chat.postMessage', 'gmail.users.messages.send', 'drive.files.list'])
      expect(names.has(id), id).toBe(true)
    expect(typedTools(['slack'], { admin: true }).some((t) => t.method.id === 'admin.users.list')).toBe(
      typedTools(['slack'], { admin: true }).some((t) => t.method.id.startsWith('admin.')),
    )
  })

  it('type Slack arguments from the method list and pass them to the method', () => {
    const history = typedTools(['slack']).find((t) => t.method.id === 'conversations.history')!
    expect(history.def.function.parameters).toMatchObject({
      properties: { channel: { type: 'string' }, limit: { type: 'integer' } },
    })
    expect(typedCall(history, { channel: 'C1', limit: 5 })).toEqual({
      method: 'POST',
      path: '/api/conversations.history',
      body: { channel: 'C1', limit: 5 },
    })
    expect(typedCall(history, { args: { channel: 'C2' } }).body).toEqual({ channel: 'C2' })
  })

  it('let Google tools pass fields and treat null as absent', () => {
    const get = typedTools(['drive']).find((t) => t.method.id === 'drive.files.get')!
    expect(get.def.function.parameters).toMatchObject({ properties: { fields: { type: 'string' } } })
    const call = typedCall(get, { fileId: 'f1', fields: 'id,parents,owners', supportsAllDrives: null })
    expect(call).toMatchObject({ method: 'GET', path: '/drive/v3/files/f1', query: { fields: 'id,parents,owners' } })
    expect(call.query).not.toHaveProperty('supportsAllDrives')
  })

  it('let Drive file tools upload content as media, and map such uploads back', () => {
    const tools = typedTools(['drive'])
    const update = tools.find((t) => t.method.id === 'drive.files.update')!
    expect(update.def.function.parameters).toMatchObject({ properties: { media: { type: 'string' } } })
    const call = typedCall(update, { fileId: 'f1', requestBody: {}, media: 'a,b\n' })
    expect(call).toEqual({
      method: 'PATCH',
      path: '/upload/drive/v3/files/f1',
      query: { uploadType: 'media' },
      body: 'a,b\n',
    })
    expect(() => typedCall(update, { fileId: 'f1', requestBody: { name: 'x' }, media: 'a' })).toThrow(/requestBody/)
    expect(toTypedCall(tools, call)).toEqual({
      tool: update.def.function.name,
      arguments: { fileId: 'f1', requestBody: {}, media: 'a,b\n' },
    })
    expect(
      typedTools(['gmail']).some((t) => 'media' in (t.def.function.parameters as { properties: object }).properties),
    ).toBe(false)
  })
})

describe('tool call shapes', () => {
  it('accepts OpenAI, Anthropic tool_use and Gemini functionCall (wrapped and plain)', () => {
    const want = { tool: 'gmail__users__getProfile', arguments: { userId: 'me' } }
    expect(parseAction({ type: 'function', function: { name: want.tool, arguments: '{"userId":"me"}' } })).toEqual(want)
    expect(parseAction({ type: 'tool_use', id: 'toolu_1', name: want.tool, input: { userId: 'me' } })).toEqual(want)
    expect(parseAction({ functionCall: { name: want.tool, args: { userId: 'me' } } })).toEqual(want)
    expect(parseAction({ name: want.tool, args: { userId: 'me' } })).toEqual(want)
    expect(
      parseAction({ type: 'function_call', name: want.tool, arguments: '{"userId":"me"}', call_id: 'c1' }),
    ).toEqual(want)
    expect(parseAction({ type: 'call_tool', tool_name: want.tool, arguments: { userId: 'me' } })).toEqual(want)
    expect(typeof parseAction({ type: 'tool_use', name: want.tool, input: 'x' })).toBe('string')
  })
})

describe('references on the typed profile', () => {
  const gym = createGym({ tasks: corpus })
  afterAll(() => gym.worlds.close())
  // The first three instances of every Slack family, and the first of every other family.
  const seen = new Map<string, number>()
  const sample = corpus.filter((t) => {
    const n = seen.get(t.family) ?? 0
    seen.set(t.family, n + 1)
    return n < (t.services.includes('slack') ? 3 : 1) && !t.tags.includes('rest-only')
  })

  it('refuses a rest-only task on the typed profile, and serves it on rest', () => {
    const task = corpus.find((t) => t.tags.includes('rest-only'))!
    expect(() => gym.reset(onTypedProfile(task))).toThrow(ProfileRefused)
    gym.reset(task).close()
  })

  it.each(sample.map((t) => [t.id, t] as const))('%s passes through typed tools', async (_id, task) => {
    const ep = gym.reset(onTypedProfile(task))
    try {
      const { calls } = await runProgramTyped(ep, task.reference)
      expect(calls.every((c) => c !== 'http_request')).toBe(true)
      const v = ep.verify()
      expect(v, JSON.stringify(v.violations)).toMatchObject({ passed: true, reward: 1 })
    } finally {
      ep.close()
    }
  })

  it('names typed tools after their method ids', () => {
    expect(toolName('conversations.history')).toBe('conversations__history')
  })
})
