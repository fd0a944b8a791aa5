import { afterAll, describe, expect, it } from 'vitest'
import { WorldManager } from '../../server/worlds.ts'
import { createAgentApp } from '../../server/app.ts'
import { gymRouter } from '../../gym/http.ts'
import { createGym } from '../../gym/index.ts'
import { TaskSpec } from '../../gym/task.ts'
import { gmailReplyPo } from '../../tasks-lite/families/gmail-reply-po.ts'

const task = TaskSpec.parse(gmailReplyPo.generate(2))
const worlds = new WorldManager()
const agent = createAgentApp(worlds)
const gym = createGym({ worlds, tasks: [task] })
const control = gymRouter(worlds, { agentBaseUrl: 'http://agent.test:8080', gym })
afterAll(() => worlds.close())

const call = async (method: string, path: string, json?: unknown) => {
  const res = await control.request(path, {
    method,
    headers: json ? { 'content-type': 'application/json' } : {},
    body: json ? JSON.stringify(json) : undefined,
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : null }
}

describe('POST /gym/reset', () => {
  it('returns an episode with tools, base URLs and tokens but no answers', async () => {
    const r = await call('POST', '/gym/reset', { taskId: task.id })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({
      instruction: task.instruction,
      baseUrls: { google: 'http://agent.test:8080' },
      tokens: { google: expect.any(String) },
    })
    expect(r.body.observation).toContain(task.instruction)
    const dump = JSON.stringify(r.body)
    const params = task.oracle.params as { answer: string }
    expect(dump).not.toContain(params.answer)
    expect(dump).not.toContain('oracle')
    expect(dump).not.toContain('reference')
    await call('DELETE', `/gym/episodes/${r.body.episodeId}`)
  })

  it('answers 404 for an unknown task and 400 for an invalid inline task', async () => {
    expect((await call('POST', '/gym/reset', { taskId: 'nope' })).status).toBe(404)
    expect((await call('POST', '/gym/reset', { task: { id: 'x' } })).status).toBe(400)
  })
})

describe('gym episode over HTTP', () => {
  it('steps, counts direct REST calls on the agent port, verifies and closes', async () => {
    const { body: ep } = await call('POST', '/gym/reset', { taskId: task.id })
    const s = await call('POST', `/gym/episodes/${ep.episodeId}/step`, {
      tool: 'http_request',
      arguments: { method: 'GET', path: '/gmail/v1/users/me/labels' },
    })
    expect(s.status).toBe(200)
    expect(JSON.parse(s.body.observation).status).toBe(200)
    // OpenAI tool-call shape with JSON-string arguments
    const s2 = await call('POST', `/gym/episodes/${ep.episodeId}/step`, {
      function: { name: 'http_request', arguments: '{"method":"GET","path":"/gmail/v1/users/me/profile"}' },
    })
    expect(JSON.parse(s2.body.observation).body.emailAddress).toBe(ep.user.email)
    // A direct call on the agent port with the episode token reaches the same world and action log.
    const direct = await agent.request('/gmail/v1/users/me/profile', {
      headers: { authorization: `Bearer ${ep.tokens.google}` },
    })
    expect(direct.status).toBe(200)
    expect(gym.get(ep.episodeId)!.actions()).toHaveLength(3)
    const v = await call('POST', `/gym/episodes/${ep.episodeId}/verify`)
    expect(v.body).toMatchObject({ passed: false, reward: 0 })
    expect((await call('DELETE', `/gym/episodes/${ep.episodeId}`)).status).toBe(204)
    expect((await call('POST', `/gym/episodes/${ep.episodeId}/verify`)).status).toBe(404)
    expect(worlds.find(ep.worldId)).toBeUndefined()
  })

  it('lists tasks without hidden parameters', async () => {
    const r = await call('GET', '/gym/tasks')
    expect(r.body.tasks).toEqual([expect.objectContaining({ id: task.id, family: 'gmail-reply-po' })])
    expect(JSON.stringify(r.body)).not.toContain('nearMisses')
  })
})

describe('agent port', () => {
  it('exposes no gym route and no task answers', async () => {
    for (const path of ['/gym/tasks', '/reset', '/state', '/gym/reset']) {
      const res = await agent.request(path, { method: path.endsWith('reset') ? 'POST' : 'GET' })
      expect(res.status, path).toBeGreaterThanOrEqual(400)
      expect(await res.text()).not.toContain(task.id)
    }
    const doc = await (await agent.request('/openapi.json')).text()
    expect(doc).not.toContain('/gym/')
  })
})

describe('OpenEnv routes on the control port (admin)', () => {
  it('resets, steps to done with a reward and reports state, always naming the episode', async () => {
    const r = await call('POST', '/reset', { task_id: task.id })
    expect(Object.keys(r.body).sort()).toEqual(['done', 'observation', 'reward'])
    expect(r.body).toMatchObject({ done: false, reward: null, observation: { instruction: task.instruction } })
    const id = r.body.observation.episode_id
    const action = { tool: 'http_request', arguments: { method: 'GET', path: '/gmail/v1/users/me/profile' } }
    // No "last reset": a step or state without the episode id is refused.
    expect((await call('POST', '/step', { action })).status).toBe(422)
    expect((await call('GET', '/state')).status).toBe(422)
    const s = await call('POST', '/step', { action, episode_id: id })
    expect(s.body).toMatchObject({ done: false, reward: 0 })
    expect(s.body.observation).not.toHaveProperty('tools')
    expect((await call('GET', `/state?episode_id=${id}`)).body).toMatchObject({
      episode_id: id,
      step_count: 1,
      done: false,
    })
    const d = await call('POST', '/step', { action: { tool: 'done', arguments: {} }, episode_id: id })
    expect(d.body).toMatchObject({ done: true, reward: 0 })
    expect((await call('POST', '/close', { episode_id: id })).status).toBe(200)
  })
})

describe('MCP per episode', () => {
  it('lists the episode tools and calls them over JSON-RPC', async () => {
    const { body: ep } = await call('POST', '/gym/reset', { taskId: task.id, toolProfile: 'typed' })
    const init = await call('POST', `/gym/episodes/${ep.episodeId}/mcp`, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {},
    })
    expect(init.body.result.capabilities.tools).toBeDefined()
    expect(
      (await call('POST', `/gym/episodes/${ep.episodeId}/mcp`, { jsonrpc: '2.0', method: 'notifications/initialized' }))
        .status,
    ).toBe(202)
    const list = await call('POST', `/gym/episodes/${ep.episodeId}/mcp`, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/list',
    })
    expect(list.body.result.tools.map((t: { name: string }) => t.name)).toContain('gmail__users__getProfile')
    const res = await call('POST', `/gym/episodes/${ep.episodeId}/mcp`, {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'gmail__users__getProfile', arguments: {} },
    })
    expect(res.body.result.isError).toBe(false)
    expect(JSON.parse(res.body.result.content[0].text).body.emailAddress).toBe(ep.user.email)
    await call('DELETE', `/gym/episodes/${ep.episodeId}`)
  })

  it('serves the tool list on request in each provider format', async () => {
    const { body: ep } = await call('POST', '/gym/reset', { taskId: task.id, toolProfile: 'typed' })
    const get = async (format: string) =>
      (await call('GET', `/gym/episodes/${ep.episodeId}/tools?format=${format}`)).body.tools
    const strict = await get('openai-strict')
    const send = strict.find((t: { function: { name: string } }) => t.function.name === 'gmail__users__labels__list')
    expect(send.function).toMatchObject({ strict: true, parameters: { additionalProperties: false } })
    expect((await get('anthropic'))[0]).toHaveProperty('input_schema')
    expect((await get('gemini'))[0].functionDeclarations[0]).toHaveProperty('parametersJsonSchema')
    expect((await get('mcp'))[0]).toHaveProperty('inputSchema')
    expect((await call('GET', `/gym/episodes/${ep.episodeId}/tools?format=nope`)).status).toBe(400)
    await call('DELETE', `/gym/episodes/${ep.episodeId}`)
  })
})
