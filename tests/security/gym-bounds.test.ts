import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import WebSocket from 'ws'
import { startServer, type Running } from '../../server/main.ts'
import { OpenEnv } from '../../gym/openenv.ts'
import { MAX_PENDING } from '../../gym/openenv-ws.ts'

// What a policy's tool call, or a trainer holding only an OpenEnv key, can send to the gym's own endpoints (the
// agent-side MCP, the control port's gym and OpenEnv routes, the OpenEnv WebSocket): nesting and size that the
// agent port's APIs refuse must be refused here too, with an answer, never a 500 or a dead process.

const ADMIN = 'gym-bounds-admin-token'
const KEY = 'k-gym-bounds-0123456789abcdef'
const TASK = 'gmail-label-sender-1'
const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`
/** An http_request action whose JSON body nests `n` levels. */
const deepAction = (n: number) => `{"method":"POST","path":"/gmail/v1/users/me/labels","body":${deep(n)}}`

let server: Running
beforeAll(async () => {
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    adminToken: ADMIN,
    openenvKey: KEY,
    worlds: [],
  })
})
afterAll(async () => server?.close())

async function control(method: string, path: string, body?: string) {
  const res = await fetch(server.controlUrl + path, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body,
  })
  const text = await res.text()
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text }
}

async function reset() {
  const r = await control('POST', '/gym/reset', JSON.stringify({ taskId: TASK }))
  expect(r.status).toBe(201)
  return r.body as { episodeId: string; tokens: { google: string } }
}
const steps = async (id: string) => (await control('GET', `/gym/episodes/${id}`)).body.steps as number

describe('JSON nested too deep for the gym', () => {
  test('the agent-side MCP endpoint answers a parse error, spends no step, and serves the next call', async () => {
    const ep = await reset()
    const mcp = (body: string) =>
      fetch(`${server.agentUrl}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ep.tokens.google}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body,
      })
    const call = (args: string) =>
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"http_request","arguments":${args}}}`
    const res = await mcp(call(deepAction(100_000)))
    expect(res.status).toBe(400)
    expect(((await res.json()) as any).error.code).toBe(-32700)
    expect(await steps(ep.episodeId)).toBe(0)
    // A body nested past the APIs' 64 levels but within the envelope's bound reaches the API, which refuses it.
    const api = await mcp(call(deepAction(100)))
    expect(api.status).toBe(200)
    expect(JSON.stringify(await api.json())).toContain('Nesting deeper than 64 levels')
    expect(await steps(ep.episodeId)).toBe(1)
  })

  test('an OpenEnv WebSocket message answers INVALID_JSON and the session keeps serving', async () => {
    const ws = new WebSocket(`${server.controlUrl.replace('http:', 'ws:')}/openenv/${KEY}/ws`)
    const replies: any[] = []
    let wake = () => {}
    ws.on('message', (raw) => {
      replies.push(JSON.parse(raw.toString()))
      wake()
    })
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    const send = async (text: string) => {
      const got = new Promise<void>((resolve) => (wake = resolve))
      ws.send(text)
      await got
      return replies.at(-1)
    }
    expect((await send(JSON.stringify({ type: 'reset', data: { task_id: TASK } }))).type).toBe('observation')
    const step = `{"type":"step","data":{"type":"call_tool","tool_name":"http_request","arguments":${deepAction(100_000)}}}`
    expect(await send(step)).toMatchObject({ type: 'error', data: { code: 'INVALID_JSON' } })
    expect(await send(JSON.stringify({ type: 'state' }))).toMatchObject({ type: 'state', data: { step_count: 0 } })
    ws.close()
  })

  test('an OpenEnv WebSocket flood of resets is cut off past MAX_PENDING waiting (every one ran, even after a close)', async () => {
    const spy = vi.spyOn(OpenEnv.prototype, 'reset')
    try {
      const ws = new WebSocket(`${server.controlUrl.replace('http:', 'ws:')}/openenv/${KEY}/ws`)
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
      const reset = JSON.stringify({ type: 'reset', data: { task_id: TASK } })
      for (let i = 0; i < 300; i++) ws.send(reset)
      const replies: any[] = []
      ws.on('message', (raw) => replies.push(JSON.parse(raw.toString())))
      const closed = await new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
      expect(closed).toBe(1008)
      expect(replies.some((r) => r.data?.code === 'TOO_MANY_MESSAGES')).toBe(true)
      // Wait until the server stops resetting (no count on a clock: the count is read until it stays put).
      let seen = -1
      while (seen !== spy.mock.calls.length) {
        seen = spy.mock.calls.length
        await new Promise((resolve) => setTimeout(resolve, 300))
      }
      expect(seen).toBeLessThanOrEqual(MAX_PENDING)
    } finally {
      spy.mockRestore()
    }
  })

  test('control routes answer 400 json_depth: step, reset, worlds.create and the OpenEnv key routes', async () => {
    const ep = await reset()
    const step = `{"tool":"http_request","arguments":${deepAction(100_000)}}`
    const refused = [
      await control('POST', `/gym/episodes/${ep.episodeId}/step`, step),
      await control('POST', '/gym/reset', deep(100_000)),
      await control('POST', '/worlds', `{"id":"deep","seed":${deep(100_000)}}`),
      await control('POST', `/openenv/${KEY}/reset`, `{"episode_id":${deep(100_000)}}`),
      await control('POST', `/openenv/${KEY}/step`, `{"episode_id":"e","action":${deep(100_000)}}`),
    ]
    for (const r of refused) expect(r).toMatchObject({ status: 400, body: { reason: 'json_depth' } })
    expect(await steps(ep.episodeId)).toBe(0)
    // The same step within the bound is an observation of the API's own 400.
    const ok = await control('POST', `/gym/episodes/${ep.episodeId}/step`, step.replace(deep(100_000), deep(100)))
    expect(ok.status).toBe(200)
    expect(ok.body.observation).toContain('Nesting deeper than 64 levels')
  })
})

describe('control request bodies', () => {
  test('a body announced past 64 MiB answers 413 body_too_large before it is sent', async () => {
    const url = new URL(server.controlUrl)
    const head =
      `POST /openenv/${KEY}/reset HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${64 * 1024 * 1024 + 1}\r\n\r\n{"episode_id":"`
    const answer = await new Promise<string>((resolve, reject) => {
      let got = ''
      const socket = connect(Number(url.port), url.hostname, () => socket.write(head))
      socket.on('data', (d) => {
        got += d.toString('latin1')
        if (got.includes('\r\n\r\n') && got.includes('}')) socket.destroy()
      })
      socket.on('close', () => resolve(got))
      socket.on('error', reject)
    })
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large')
    expect(answer).toContain('"reason":"body_too_large"')
  })

  test('a chunked body past 64 MiB answers 413 body_too_large', async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(0x20)
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ > 70) controller.close()
        else controller.enqueue(chunk)
      },
    })
    const res = await fetch(`${server.controlUrl}/gym/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit)
    expect(res.status).toBe(413)
    expect(((await res.json()) as any).reason).toBe('body_too_large')
  })
})
