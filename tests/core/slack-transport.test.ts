import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

describe('slack transport (api.test)', () => {
  test('accepts GET query, form, JSON and multipart bodies alike', async () => {
    const h = harness()
    const get = await h.call('GET', '/api/api.test?a=1&b=two', { token: null })
    const form = await h.call('POST', '/api/api.test', { token: null, form: { a: '1', b: 'two' } })
    const json = await h.call('POST', '/api/api.test', { token: null, json: { a: '1', b: 'two' } })
    const fd = new FormData()
    fd.set('a', '1')
    fd.set('b', 'two')
    const res = await h.app.request('/api/api.test', { method: 'POST', body: fd })
    const multipart = (await res.json()) as { args: unknown }
    for (const r of [get.body, form.body, json.body, multipart]) expect(r).toMatchObject({ args: { a: '1', b: 'two' } })
  })

  test('body arguments win over query arguments', async () => {
    const h = harness()
    const res = await h.call('POST', '/api/api.test?a=query', { token: null, form: { a: 'body' } })
    expect(res.body.args.a).toBe('body')
  })

  test('a JSON body that is not an object answers json_not_object', async () => {
    const h = harness()
    const res = await h.call('POST', '/api/auth.test', {
      body: '[1,2]',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.body).toEqual({ ok: false, error: 'json_not_object' })
  })

  test('errors keep HTTP 200 like Slack', async () => {
    const h = harness()
    const res = await h.call('POST', '/api/auth.test', { token: 'xoxb-nope-00', form: {} })
    expect(res.status).toBe(200)
    expect(res.body.ok).toBe(false)
  })
})
