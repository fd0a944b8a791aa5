import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startServer, type Running } from '../../server/main.ts'
import { expandMacros, fill, pick, type Vars } from '../../gym/program-grammar.ts'
import { loadCorpus } from '../../gym/corpus.ts'
import type { TaskSpec } from '../../gym/task.ts'
import { HttpEnvClient, WsEnvClient, type StepResult } from './openenv-client.ts'

const ADMIN = 'openenv-test-admin'
const KEY = 'k-openenv-test-0123456789abcdef'
const [t1, t2] = loadCorpus().filter((t) => t.family === 'gmail-label-sender')
let server: Running
let base: string

beforeAll(async () => {
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    adminToken: ADMIN,
    openenvKey: KEY,
    worlds: [],
  })
  base = `${server.controlUrl}/openenv/${KEY}`
})
afterAll(async () => server?.close())

/** Runs a task's reference as OpenEnv call_tool actions through `step`, reading each observation's text. */
async function solve(
  task: TaskSpec,
  step: (action: Record<string, unknown>) => Promise<StepResult>,
): Promise<StepResult> {
  const vars: Vars = {}
  for (const s of task.reference) {
    const args = (await expandMacros(fill(s.args, vars))) as Record<string, unknown>
    const r = await step({ type: 'call_tool', tool_name: s.tool, arguments: args })
    expect(r.done).toBe(false)
    expect(r.observation.error).toBeNull()
    const obs = JSON.parse(r.observation.result.content[0].text)
    for (const [name, path] of Object.entries(s.save ?? {})) if (path) vars[name] = pick(obs.body, path)
    await new Promise((res) => setImmediate(res)) // let the other client interleave
  }
  return step({ type: 'call_tool', tool_name: 'done', arguments: {} })
}

describe('OpenEnv over WebSocket (<base>/ws)', () => {
  it('runs two full episodes in parallel, one per connection, each with its own reward', async () => {
    const a = await new WsEnvClient(base).connect()
    const b = await new WsEnvClient(base).connect()
    const [ra, rb] = await Promise.all([
      a.reset({ task_id: t1!.id, episode_id: 'same-name' }),
      b.reset({ task_id: t2!.id, episode_id: 'same-name' }),
    ])
    for (const r of [ra, rb]) {
      expect(Object.keys(r).sort()).toEqual(['done', 'observation', 'reward'])
      expect(r).toMatchObject({ reward: null, done: false, observation: { episode_id: 'same-name', step_count: 0 } })
      expect(r.observation.text).toMatch(/^You are .+ <.+>\. Current time: /)
      expect(r.observation.tools.map((t: { name: string }) => t.name)).toEqual(['http_request', 'done'])
      expect(r.observation.tools[0].input_schema.type).toBe('object')
    }
    expect(ra.observation.instruction).toBe(t1!.instruction)
    expect(rb.observation.instruction).toBe(t2!.instruction)
    const [fa, fb] = await Promise.all([solve(t1!, (x) => a.step(x)), solve(t2!, (x) => b.step(x))])
    expect(fa).toMatchObject({ done: true, reward: 1 })
    expect(fb).toMatchObject({ done: true, reward: 1 })
    expect(await a.state()).toMatchObject({ episode_id: 'same-name', step_count: t1!.reference.length + 1, done: true })
    const after = await a.step({
      type: 'call_tool',
      tool_name: 'http_request',
      arguments: { method: 'GET', path: '/gmail/v1/users/me/profile' },
    })
    expect(after).toMatchObject({ done: true, reward: 1, observation: { error: { error_type: 'execution_error' } } })
    await a.close()
    await b.close()
  })

  it('answers list_tools, typed errors, and frees the episode when the connection closes', async () => {
    const c = await new WsEnvClient(base).connect()
    await expect(c.step({ type: 'list_tools' })).rejects.toThrow(/reset first/)
    const r = await c.reset({ seed: 3, tool_profile: 'typed' })
    const id = r.observation.episode_id
    const listed = await c.step({ type: 'list_tools' })
    expect(listed.observation.tools.length).toBe(r.observation.tools.length)
    expect(listed.observation.tools.length).toBeLessThanOrEqual(129)
    // Anthropic tool_use and Gemini functionCall shapes are actions too.
    const name =
      listed.observation.tools.find((t: { name: string }) => t.name.endsWith('getProfile'))?.name ??
      'gmail__users__getProfile'
    const viaClaude = await c.step({ type: 'tool_use', id: 'toolu_1', name, input: { userId: 'me' } })
    expect(JSON.parse(viaClaude.observation.result.content[0].text).status).toBeLessThan(500)
    const viaGemini = await c.step({ functionCall: { name: 'nope', args: {} } })
    expect(viaGemini.observation.error).toMatchObject({ error_type: 'tool_not_found' })
    expect((await c.send({ type: 'bogus' })).data.code).toBe('UNKNOWN_TYPE')
    expect((await c.send({ type: 'step', data: 5 })).data.code).toBe('VALIDATION_ERROR')
    const mcp = await c.send({ type: 'mcp', data: { jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} } })
    expect(mcp).toMatchObject({ type: 'mcp', data: { id: 9, result: { tools: expect.any(Array) } } })
    const before = server.worlds.list().length
    await c.close()
    await vi.waitFor(() => expect(server.worlds.find(id)).toBeUndefined())
    expect(server.worlds.list().length).toBe(before - 1)
  })

  it('refuses an unknown key, and /ws without the admin token', async () => {
    await expect(new WsEnvClient(`${server.controlUrl}/openenv/not-a-key-0000000000`).connect()).rejects.toThrow(/404/)
    await expect(new WsEnvClient(server.controlUrl).connect()).rejects.toThrow(/401/)
    await expect(new WsEnvClient(server.controlUrl).connect({ authorization: 'Bearer nope' })).rejects.toThrow(/401/)
    const admin = await new WsEnvClient(server.controlUrl).connect({ authorization: `Bearer ${ADMIN}` })
    expect((await admin.reset({ task_id: t1!.id })).done).toBe(false)
    await admin.close()
  })
})

describe('OpenEnv over HTTP', () => {
  it('runs two clients in parallel, each naming its episode, answering {observation, reward, done}', async () => {
    const x = new HttpEnvClient(base)
    const y = new HttpEnvClient(base)
    await Promise.all([
      x.reset({ task_id: t1!.id, episode_id: 'x-1' }),
      y.reset({ task_id: t1!.id, episode_id: 'y-1', seed: 0 }),
    ])
    const [fx, fy] = await Promise.all([
      solve(t1!, (a) => x.step('x-1', a)),
      y.step('y-1', { tool: 'done', arguments: {} }),
    ])
    expect(Object.keys(fx).sort()).toEqual(['done', 'observation', 'reward'])
    expect(fx).toMatchObject({ done: true, reward: 1 })
    expect(fy.done).toBe(true)
    expect(fy.reward).toBeLessThanOrEqual(0)
    expect(await x.state('x-1')).toMatchObject({ episode_id: 'x-1', step_count: t1!.reference.length + 1 })
    expect(await y.state('y-1')).toMatchObject({ episode_id: 'y-1', step_count: 1 })
    expect((await x.request('POST', '/close', { episode_id: 'x-1' })).status).toBe(200)
    expect((await x.request('GET', '/state?episode_id=x-1')).status).toBe(404)
  })

  it('needs an explicit episode id and answers 422 {detail} for invalid input', async () => {
    const c = new HttpEnvClient(base)
    await c.reset({ task_id: t1!.id, episode_id: 'z-1' })
    const missing = await c.request('POST', '/step', { action: { type: 'list_tools' } })
    expect(missing.status).toBe(422)
    expect(missing.body.detail[0]).toMatchObject({ loc: ['body', 'episode_id'], type: 'missing' })
    expect((await c.request('GET', '/state')).status).toBe(422)
    expect((await c.request('POST', '/step', { episode_id: 'z-1' })).body.detail[0]).toMatchObject({
      loc: ['body', 'action'],
      msg: 'Field required',
    })
    expect((await c.request('POST', '/step', { episode_id: 'z-1', action: { name: 42 } })).status).toBe(422)
    expect(
      (await c.request('POST', '/step', { episode_id: 'z-1', action: { type: 'list_tools' }, timeout_s: -1 })).status,
    ).toBe(422)
    expect((await c.request('POST', '/reset', { seed: -1 })).status).toBe(422)
    expect((await c.request('POST', '/step', { episode_id: 'nobody', action: { type: 'list_tools' } })).status).toBe(
      404,
    )
    const res = await fetch(`${base}/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    })
    expect(res.status).toBe(422)
    expect(((await res.json()) as any).detail[0].type).toBe('json_invalid')
    await c.request('POST', '/close', { episode_id: 'z-1' })
  })

  it('serves /health, /metadata, /schema and the OpenEnv /mcp session methods', async () => {
    const c = new HttpEnvClient(base)
    expect((await c.request('GET', '/health')).body).toEqual({ status: 'healthy' })
    expect((await c.request('GET', '/metadata')).body).toMatchObject({
      name: 'workspace-gym',
      version: expect.any(String),
    })
    expect(Object.keys((await c.request('GET', '/schema')).body).sort()).toEqual(['action', 'observation', 'state'])
    const rpc = (method: string, params: Record<string, unknown> = {}) =>
      c.request('POST', '/mcp', { jsonrpc: '2.0', id: 1, method, params })
    const session = (await rpc('openenv/session/create', { task_id: t1!.id })).body.result.session_id
    const tools = (await rpc('tools/list', { session_id: session })).body.result.tools
    expect(tools.map((t: { name: string }) => t.name)).toEqual(['http_request', 'done'])
    const call = (
      await rpc('tools/call', {
        session_id: session,
        name: 'http_request',
        arguments: { method: 'GET', path: '/gmail/v1/users/me/profile' },
      })
    ).body
    expect(JSON.parse(call.result.content[0].text).status).toBe(200)
    expect((await rpc('tools/list')).body.error.code).toBe(-32602)
    expect((await rpc('openenv/session/close', { session_id: session })).body.result).toEqual({
      session_id: session,
      closed: true,
    })
  })

  it('hands the agent its own credentials only when asked, and they open the agent-side MCP', async () => {
    const c = new HttpEnvClient(base)
    const plain = await c.reset({ task_id: t1!.id, episode_id: 'cred-0' })
    expect(plain.observation).not.toHaveProperty('credentials')
    const r = await c.reset({ task_id: t1!.id, episode_id: 'cred-1', include_credentials: true })
    const cred = r.observation.credentials
    expect(cred.base_urls.mcp).toBe(`${server.agentUrl}/mcp`)
    // The agent solves the task through the agent-side MCP endpoint with nothing but that token.
    const mcp = async (name: string, args: Record<string, unknown>) => {
      const res = await fetch(cred.base_urls.mcp, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${cred.tokens.google}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
      })
      const reply = (await res.json()) as any
      return { observation: { error: null, result: reply.result }, reward: 0, done: false }
    }
    await solve(t1!, ({ tool_name, arguments: args }) => mcp(tool_name as string, args as Record<string, unknown>))
    expect(await c.state('cred-1')).toMatchObject({ step_count: t1!.reference.length + 1, done: true })
    // However the episode ended, the OpenEnv side reports the oracle's reward for it.
    expect(await c.step('cred-1', { type: 'list_tools' })).toMatchObject({ done: true, reward: 1 })
    await c.request('POST', '/close', { episode_id: 'cred-0' })
    await c.request('POST', '/close', { episode_id: 'cred-1' })
  })

  it('opens nothing of the control plane with the key', async () => {
    for (const [method, path] of [
      ['GET', '/gym/episodes'],
      ['GET', '/worlds'],
      ['POST', '/gym/reset'],
    ] as const) {
      const res = await fetch(`${server.controlUrl}${path}`, { method, headers: { authorization: `Bearer ${KEY}` } })
      expect(res.status, path).toBe(401)
      const viaKey = await fetch(`${base}${path}`, { method })
      expect(viaKey.status, path).toBe(404)
    }
    expect((await fetch(`${server.controlUrl}/openenv/wrong-key-0000000000/health`)).status).toBe(404)
    expect((await fetch(`${server.controlUrl}/reset`, { method: 'POST' })).status).toBe(401)
    expect((await fetch(`${server.controlUrl}/health`)).status).toBe(200)
  })

  it('mints scoped keys for operators and revokes them', async () => {
    const admin = new HttpEnvClient(server.controlUrl, { authorization: `Bearer ${ADMIN}` })
    const minted = await admin.request('POST', '/gym/openenv/keys', { tasks: [t2!.id], toolProfile: 'typed' })
    expect(minted.status).toBe(201)
    const scoped = new HttpEnvClient(minted.body.baseUrl)
    const r = await scoped.reset({ episode_id: 'only' })
    expect(r.observation.task_id).toBe(t2!.id)
    expect(r.observation.tools.length).toBeGreaterThan(2)
    expect((await scoped.request('POST', '/reset', { task_id: t1!.id })).status).toBe(404)
    expect((await admin.request('DELETE', `/gym/openenv/keys/${minted.body.key}`)).status).toBe(204)
    expect((await scoped.request('GET', '/health')).status).toBe(404)
  })
})
