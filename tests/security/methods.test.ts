import { describe, expect, test } from 'vitest'
import { request as httpRequest } from 'node:http'
import { createGym } from '../../gym/index.ts'
import { TaskSpec } from '../../gym/task.ts'
import { gmailReplyPo } from '../../tasks-lite/families/gmail-reply-po.ts'
import { harness } from '../../envs/core/testing/harness.ts'
import { startServer } from '../../server/main.ts'

// No method name reaches a 5xx: step actions and agent routes (issue #12).

const task = TaskSpec.parse(gmailReplyPo.generate(5))

describe('step actions with odd methods', () => {
  test('TRACE, CONNECT, a method with a space and an empty one answer 400/405 observations, never 5xx', async () => {
    const gym = createGym({ tasks: [task] })
    const ep = gym.reset(task.id)
    const cases: [string, number][] = [
      ['TRACE', 405],
      ['CONNECT', 405],
      ['trace', 405],
      ['GE T', 400],
      ['', 400],
      ['GET\r\nX: y', 400],
      ['PROPFIND', 405],
    ]
    for (const [method, status] of cases) {
      const r = await ep.step({ tool: 'http_request', arguments: { method, path: '/gmail/v1/users/me/profile' } })
      expect([method, r.info.status]).toEqual([method, status])
    }
    const ok = await ep.step({ tool: 'http_request', arguments: { method: 'get', path: '/gmail/v1/users/me/profile' } })
    expect(ok.info.status).toBe(200)
    gym.worlds.close()
  })
})

describe('unknown HTTP methods on agent routes', () => {
  test("Google paths answer 405 in Google's envelope; Slack methods answer 405 ok:false", async () => {
    const h = harness('empty')
    const g = await h.call('PROPFIND', '/gmail/v1/users/me/messages')
    expect(g.status).toBe(405)
    expect(g.body.error).toMatchObject({ code: 405, errors: [{ reason: 'httpMethodNotAllowed' }] })
    const d = await h.call('MKCOL', '/drive/v3/files')
    expect(d.status).toBe(405)
    expect(d.body.error.status).toBeUndefined() // Drive's legacy envelope has no status
    const s = await h.call('PUT', '/api/auth.test', { form: {} })
    expect(s.status).toBe(405)
    expect(s.body).toEqual({ ok: false, error: 'method_not_allowed' })
  })

  test('over a real socket, TRACE and made-up methods never answer 5xx', async () => {
    const running = await startServer({
      host: '127.0.0.1',
      port: 0,
      controlPort: 0,
      adminToken: 'x',
      worlds: [{ id: 'm', seed: 'empty', seedValue: 1 }],
    })
    try {
      const url = new URL(running.agentUrl)
      const send = (method: string, path: string) =>
        new Promise<number>((resolve, reject) => {
          const req = httpRequest({ host: url.hostname, port: url.port, method, path }, (res) => {
            res.resume()
            resolve(res.statusCode ?? 0)
          })
          req.on('error', reject)
          req.end()
        })
      for (const [method, path] of [
        ['TRACE', '/gmail/v1/users/me/profile'],
        ['TRACE', '/api/auth.test'],
        ['PURGE', '/drive/v3/files'],
        ['LOCK', '/calendar/v3/users/me/calendarList'],
      ]) {
        const status = await send(method!, path!)
        expect([method, status]).toEqual([method, 405])
      }
    } finally {
      await running.close()
    }
  })
})
