import { describe, expect, test } from 'vitest'
import { WorldManager } from '../../server/worlds.ts'
import { createAgentApp } from '../../server/app.ts'
import { createControlApp } from '../../server/control/app.ts'
import { createGym } from '../../gym/index.ts'
import { agentMcpApp } from '../../gym/agent-mcp.ts'
import { TaskSpec } from '../../gym/task.ts'
import { nowMs } from '../../envs/core/clock.ts'
import type { Limits } from '../../server/limits.ts'
import { gmailReplyPo } from '../../tasks-lite/families/gmail-reply-po.ts'

// Two agents run episodes of one task side by side on one server; each tries to reach the other (issue #12).

const ADMIN = 'admin-secret'
const task = TaskSpec.parse(gmailReplyPo.generate(3))

function server(limits: Partial<Limits> = {}, maxSteps = task.maxSteps) {
  const worlds = new WorldManager({ limits })
  const agent = createAgentApp(worlds)
  let wall = 1_000_000
  const gym = createGym({ worlds, app: agent, tasks: [{ ...task, maxSteps }], clock: () => wall })
  const control = createControlApp(worlds, { adminToken: ADMIN, gym })
  const ctl = async (method: string, path: string, body?: unknown, token = ADMIN) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await control.request(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : undefined }
  }
  const rest = async (token: string, method: string, path: string, json?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` }
    if (json !== undefined) headers['content-type'] = 'application/json'
    const res = await agent.request(path, {
      method,
      headers,
      body: json === undefined ? undefined : JSON.stringify(json),
    })
    return { status: res.status, body: (await res.json()) as any }
  }
  const slack = async (token: string, method: string) =>
    (await (
      await agent.request(`/api/${method}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })
    ).json()) as any
  const reset = async () => (await ctl('POST', '/gym/reset', { taskId: task.id })).body
  const mcp = agentMcpApp(gym)
  const agentMcp = async (token: string) => {
    const headers = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    }
    const res = await mcp.request('/mcp', {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    return res.status
  }
  return { worlds, gym, ctl, rest, slack, reset, agentMcp, advanceWall: (ms: number) => (wall += ms) }
}

const swap = (token: string, from: string, to: string) =>
  token.replace(`.${from}.`, `.${to}.`).replace(`-${from}-`, `-${to}-`)

describe('two episodes of one task are sealed from each other', () => {
  test('neither agent reads, writes, verifies or resets the other through any route it can reach', async () => {
    const s = server()
    const one = await s.reset()
    const two = await s.reset()
    expect(one.tokens.google).not.toBe(swap(two.tokens.google, two.worldId, one.worldId))
    const mine = await s.rest(one.tokens.google, 'GET', '/gmail/v1/users/me/messages')
    expect(mine.status).toBe(200)
    const victimMail = mine.body.messages[0].id

    // REST with the world id swapped: read, write and delete are refused.
    const forged = swap(one.tokens.google, one.worldId, two.worldId)
    expect((await s.rest(forged, 'GET', '/gmail/v1/users/me/messages')).status).toBe(401)
    expect((await s.rest(forged, 'DELETE', `/gmail/v1/users/me/messages/${victimMail}`)).status).toBe(401)
    expect((await s.rest(forged, 'POST', '/gmail/v1/users/me/messages/send', { raw: 'eA' })).status).toBe(401)
    expect((await s.slack(swap(one.tokens.slack, one.worldId, two.worldId), 'auth.test')).error).toBe('invalid_auth')
    // The agent-side MCP endpoint takes the episode's own token only.
    expect(await s.agentMcp(one.tokens.google)).toBe(200)
    expect(await s.agentMcp(forged)).toBe(401)

    // Step tool, verify, reset, MCP, state and delete live on the control port: an agent token opens none of them.
    const other = two.episodeId
    for (const [method, path, body] of [
      ['POST', `/gym/episodes/${other}/step`, { tool: 'done' }],
      ['POST', `/gym/episodes/${other}/verify`, undefined],
      ['POST', `/gym/episodes/${other}/mcp`, { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
      ['DELETE', `/gym/episodes/${other}`, undefined],
      ['POST', '/gym/reset', { taskId: task.id }],
      ['POST', '/step', { episode_id: other, action: { tool: 'done' } }],
      ['GET', `/worlds/${two.worldId}/state`, undefined],
      ['POST', `/worlds/${two.worldId}/restore`, { name: 'baseline' }],
    ] as const) {
      for (const token of [one.tokens.google, one.tokens.slack, forged]) {
        expect([path, (await s.ctl(method, path, body, token)).status]).toEqual([path, 401])
      }
    }
    // Episode two is untouched: its mail is there and its action log holds none of agent one's calls.
    expect((await s.rest(two.tokens.google, 'GET', `/gmail/v1/users/me/messages/${victimMail}`)).status).toBe(200)
    expect(
      s.gym
        .get(other)!
        .actions()
        .map((a) => a.path),
    ).toEqual(['/gmail/v1/users/me/messages', `/gmail/v1/users/me/messages/${victimMail}`].slice(1))
    expect(s.gym.get(other)!.verify().steps).toBe(0)
  })

  test("the tokens of a finished episode stop working at once; the other episode's keep working", async () => {
    const s = server()
    const one = await s.reset()
    const two = await s.reset()
    expect((await s.ctl('POST', `/gym/episodes/${one.episodeId}/step`, { tool: 'done' })).body.terminated).toBe(true)
    expect((await s.rest(one.tokens.google, 'GET', '/gmail/v1/users/me/profile')).status).toBe(401)
    expect((await s.rest(one.tokens.google, 'POST', '/gmail/v1/users/me/messages/send', { raw: 'eA' })).status).toBe(
      401,
    )
    expect((await s.slack(one.tokens.slack, 'auth.test')).error).toBe('invalid_auth')
    expect(await s.agentMcp(one.tokens.google)).toBe(401)
    expect(await s.agentMcp(two.tokens.google)).toBe(200)
    // Verify still judges the world as it was when the agent finished, and the episode view shows no live token.
    expect((await s.ctl('POST', `/gym/episodes/${one.episodeId}/verify`)).status).toBe(200)
    expect((await s.ctl('GET', `/gym/episodes/${one.episodeId}`)).body.tokens).toEqual({ google: null, slack: null })
    expect((await s.rest(two.tokens.google, 'GET', '/gmail/v1/users/me/profile')).status).toBe(200)
  })

  test('an episode out of steps, a closed one and an expired one refuse their tokens', async () => {
    const s = server({ episodeIdleMs: 60_000, episodeMaxAgeMs: 3_600_000 }, 2)
    const short = await s.reset()
    const step = { tool: 'http_request', arguments: { method: 'GET', path: '/gmail/v1/users/me/profile' } }
    await s.ctl('POST', `/gym/episodes/${short.episodeId}/step`, step)
    expect((await s.ctl('POST', `/gym/episodes/${short.episodeId}/step`, step)).body.truncated).toBe(true)
    expect((await s.rest(short.tokens.google, 'GET', '/gmail/v1/users/me/profile')).status).toBe(401)

    const closed = await s.reset()
    expect((await s.ctl('DELETE', `/gym/episodes/${closed.episodeId}`)).status).toBe(204)
    expect((await s.rest(closed.tokens.google, 'GET', '/gmail/v1/users/me/profile')).status).toBe(401)

    const idle = await s.reset()
    const busy = await s.reset()
    s.advanceWall(45_000)
    await s.ctl('POST', `/gym/episodes/${busy.episodeId}/step`, step)
    s.advanceWall(30_000)
    expect(s.gym.reap()).toEqual([short.episodeId, idle.episodeId])
    expect((await s.rest(idle.tokens.google, 'GET', '/gmail/v1/users/me/profile')).status).toBe(401)
    expect((await s.ctl('POST', `/gym/episodes/${idle.episodeId}/step`, step)).status).toBe(410)
    expect((await s.ctl('POST', `/gym/episodes/${idle.episodeId}/verify`)).body).toMatchObject({ reason: 'expired' })
    expect((await s.rest(busy.tokens.google, 'GET', '/gmail/v1/users/me/profile')).status).toBe(200)
    s.advanceWall(3_600_000)
    await s.reset()
    expect(s.gym.get(busy.episodeId)).toBeUndefined()
  })
  test('an episode whose world was deleted through the control plane is reaped without an error', async () => {
    const s = server({ episodeIdleMs: 60_000, episodeMaxAgeMs: 3_600_000 }, 2)
    const ep = await s.reset()
    expect((await s.ctl('DELETE', `/worlds/${ep.episodeId}`)).status).toBe(204)
    s.advanceWall(61_000)
    expect(s.gym.reap()).toEqual([ep.episodeId])
    expect((await s.ctl('POST', `/gym/episodes/${ep.episodeId}/step`, { tool: 'done', arguments: {} })).status).toBe(
      410,
    )
  })
})

describe('episode capacity', () => {
  test('past the live-episode cap, reset answers 429 with a reason; closing one makes room', async () => {
    const s = server({ maxEpisodes: 2 })
    const a = await s.reset()
    await s.reset()
    const refused = await s.ctl('POST', '/gym/reset', { taskId: task.id })
    expect(refused).toMatchObject({ status: 429, body: { reason: 'max_episodes' } })
    await s.ctl('DELETE', `/gym/episodes/${a.episodeId}`)
    expect((await s.ctl('POST', '/gym/reset', { taskId: task.id })).status).toBe(201)
  })
})

describe('the episode clock', () => {
  test('300 agent requests move the clock by at most maxSteps ticks', async () => {
    const s = server({}, 10)
    const ep = await s.reset()
    const world = s.worlds.get(ep.worldId).world
    const start = nowMs(world.db)
    for (let i = 0; i < 300; i++) await s.rest(ep.tokens.google, 'GET', '/gmail/v1/users/me/profile')
    expect(nowMs(world.db) - start).toBe(10 * 1000)
    // The control plane (admin) still moves it, and can lift the cap.
    const advanced = await s.ctl('POST', `/worlds/${ep.worldId}/clock`, { advanceMs: 5000 })
    expect(advanced.body).toMatchObject({ clockMs: start + 15_000, tickLimitMs: 10_000, tickedMs: 10_000 })
  })
})
