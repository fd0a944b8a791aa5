import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { startServer, type Running } from '../../server/main.ts'
import { expandMacros, fill, pick, type Vars } from '../../gym/program-grammar.ts'
import { loadCorpus } from '../../gym/corpus.ts'

const ADMIN = 'mcp-test-admin'
const task = loadCorpus().find((t) => t.family === 'gmail-label-sender')!
let server: Running

const control = async (method: string, path: string, json?: unknown) => {
  const res = await fetch(server.controlUrl + path, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(json) : undefined,
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : null }
}

/** An MCP SDK client holding nothing but the episode's own token. */
async function connect(url: string, token: string) {
  const client = new Client({ name: 'agent-under-test', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  })
  await client.connect(transport)
  return client
}

beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, controlPort: 0, adminToken: ADMIN, worlds: [] })
})
afterAll(async () => server?.close())

describe('agent-side MCP (POST /mcp on the agent port)', () => {
  it('solves a task with the official SDK client and only the episode token', async () => {
    const { body: ep } = await control('POST', '/gym/reset', { taskId: task.id })
    expect(ep.baseUrls.mcp).toBe(`${server.agentUrl}/mcp`)
    const client = await connect(ep.baseUrls.mcp, ep.tokens.google)
    expect(client.getInstructions()).toContain(`You are ${ep.user.name} <${ep.user.email}>. Current time: `)
    expect(client.getInstructions()).toContain(task.instruction)
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual(['http_request', 'done'])
    const vars: Vars = {}
    for (const step of task.reference) {
      const args = (await expandMacros(fill(step.args, vars))) as Record<string, unknown>
      const r = await client.callTool({ name: step.tool, arguments: args })
      const text = (r.content as { type: string; text: string }[])[0]!.text
      const obs = JSON.parse(text) as { status: number; body: unknown }
      expect(obs.status, text.slice(0, 300)).toBeLessThan(400)
      for (const [name, path] of Object.entries(step.save ?? {})) if (path) vars[name] = pick(obs.body, path)
    }
    const done = await client.callTool({ name: 'done', arguments: {} })
    expect(done.isError).toBe(false)
    await client.close()
    const verdict = await control('POST', `/gym/episodes/${ep.episodeId}/verify`)
    expect(verdict.body).toMatchObject({ passed: true, reward: 1 })
    await control('DELETE', `/gym/episodes/${ep.episodeId}`)
  })

  it('refuses the admin token, no token and the token of an ended episode', async () => {
    const { body: ep } = await control('POST', '/gym/reset', { taskId: task.id })
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    }
    const post = (token?: string) =>
      fetch(`${server.agentUrl}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(init),
      })
    expect((await post(ep.tokens.google)).status).toBe(200)
    expect((await post(ep.tokens.slack)).status).toBe(200)
    const admin = await post(ADMIN)
    expect(admin.status).toBe(401)
    expect(admin.headers.get('www-authenticate')).toMatch(/^Bearer /)
    expect((await post()).status).toBe(401)
    await control('DELETE', `/gym/episodes/${ep.episodeId}`)
    expect((await post(ep.tokens.google)).status).toBe(401)
  })

  it('gives each episode its own tools, and nothing of the control plane', async () => {
    const { body: a } = await control('POST', '/gym/reset', { taskId: task.id, toolProfile: 'typed' })
    const { body: b } = await control('POST', '/gym/reset', { taskId: task.id })
    const ca = await connect(a.baseUrls.mcp, a.tokens.google)
    const cb = await connect(b.baseUrls.mcp, b.tokens.google)
    const namesA = (await ca.listTools()).tools.map((t) => t.name)
    expect(namesA).toContain('gmail__users__labels__list')
    expect(namesA.some((n) => /verify|reset|episode|world|snapshot/i.test(n))).toBe(false)
    expect((await cb.listTools()).tools.map((t) => t.name)).toEqual(['http_request', 'done'])
    await ca.callTool({ name: 'gmail__users__getProfile', arguments: { userId: 'me' } })
    expect((await control('GET', `/gym/episodes/${a.episodeId}`)).body.steps).toBe(1)
    expect((await control('GET', `/gym/episodes/${b.episodeId}`)).body.steps).toBe(0)
    // The agent port offers no control routes with an episode token.
    for (const path of ['/gym/episodes', `/gym/episodes/${a.episodeId}/verify`, '/worlds', '/reset']) {
      const res = await fetch(server.agentUrl + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.tokens.google}` },
      })
      expect(res.status, path).toBeGreaterThanOrEqual(400)
    }
    await ca.close()
    await cb.close()
    await control('DELETE', `/gym/episodes/${a.episodeId}`)
    await control('DELETE', `/gym/episodes/${b.episodeId}`)
  })

  it('follows the transport spec: 202 for responses, 405 with Allow, no session id, Origin checked', async () => {
    const { body: ep } = await control('POST', '/gym/reset', { taskId: task.id })
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${ep.tokens.google}`,
    }
    const post = (msg: unknown) =>
      fetch(`${server.agentUrl}/mcp`, { method: 'POST', headers, body: JSON.stringify(msg) })
    const init = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    })
    expect(init.headers.get('mcp-session-id')).toBeNull()
    expect(((await init.json()) as any).result.protocolVersion).toBe('2025-03-26')
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202)
    expect((await post({ jsonrpc: '2.0', id: 7, result: {} })).status).toBe(202)
    const get = await fetch(`${server.agentUrl}/mcp`, { headers })
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
    const del = await fetch(`${server.agentUrl}/mcp`, { method: 'DELETE', headers })
    expect(del.status).toBe(405)
    expect(((await (await post({ jsonrpc: '2.0', id: 2, method: 'nope' })).json()) as any).error.code).toBe(-32601)
    const bad = await fetch(`${server.agentUrl}/mcp`, { method: 'POST', headers, body: '{' })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as any).error.code).toBe(-32700)
    const foreign = await fetch(`${server.agentUrl}/mcp`, {
      method: 'POST',
      headers: { ...headers, origin: 'http://evil.example' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' }),
    })
    expect(foreign.status).toBe(403)
    const own = await fetch(`${server.agentUrl}/mcp`, {
      method: 'POST',
      headers: { ...headers, origin: server.agentUrl },
      body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'ping' }),
    })
    expect(own.status).toBe(200)
    const unknownTool: any = await (
      await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope', arguments: {} } })
    ).json()
    expect(unknownTool.error.code).toBe(-32602)
    await control('DELETE', `/gym/episodes/${ep.episodeId}`)
  })
})
