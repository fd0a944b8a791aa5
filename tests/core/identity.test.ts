import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

const twoUsers = {
  name: 'two',
  users: [
    { id: 'ann', email: 'ann@example.com', name: 'Ann Lee' },
    { id: 'ben', email: 'ben@example.com', name: 'Ben Ode' },
  ],
}

describe('google identity', () => {
  test("a missing token answers 401 UNAUTHENTICATED in Google's envelope", async () => {
    const h = harness(twoUsers)
    const res = await h.call('GET', '/gmail/v1/users/me/profile', { token: null })
    expect(res.status).toBe(401)
    expect(res.body.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' })
    expect(res.body.error.errors[0]).toMatchObject({
      reason: 'required',
      location: 'Authorization',
      locationType: 'header',
    })
  })

  test('an unknown or malformed token answers 401 authError', async () => {
    const h = harness(twoUsers)
    for (const token of ['ya29.test.deadbeef', 'garbage', 'ya29.nosuchworld.00']) {
      const res = await h.call('GET', '/gmail/v1/users/me/profile', { token })
      expect(res.status).toBe(401)
      expect(res.body.error.errors[0].reason).toBe('authError')
    }
  })

  test('a Slack token is not a Google credential', async () => {
    const h = harness(twoUsers)
    const res = await h.call('GET', '/gmail/v1/users/me/profile', { token: h.slack('ann') })
    expect(res.status).toBe(401)
  })

  test('the token selects the user', async () => {
    const h = harness(twoUsers)
    const ann = await h.call('GET', '/gmail/v1/users/me/profile', { token: h.google('ann') })
    const ben = await h.call('GET', '/gmail/v1/users/me/profile', { token: h.google('ben') })
    expect(ann.body.emailAddress).toBe('ann@example.com')
    expect(ben.body.emailAddress).toBe('ben@example.com')
  })

  test('access_token in the query string authenticates like the header', async () => {
    const h = harness(twoUsers)
    const res = await h.call('GET', `/gmail/v1/users/me/profile?access_token=${h.google('ben')}`, { token: null })
    expect(res.body.emailAddress).toBe('ben@example.com')
  })

  test('a token of one world does not open another world', async () => {
    const a = harness(twoUsers, 1)
    const b = harness(twoUsers, 2)
    // Both worlds are called "test" in their own managers; a token minted for world 2 has another key.
    const res = await a.call('GET', '/gmail/v1/users/me/profile', { token: b.google('ann') })
    expect(res.status).toBe(401)
  })
})

describe('slack identity', () => {
  test('no token answers not_authed with HTTP 200', async () => {
    const h = harness(twoUsers)
    const res = await h.call('POST', '/api/auth.test', { token: null, form: {} })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: false, error: 'not_authed' })
  })

  test('an unknown token answers invalid_auth', async () => {
    const h = harness(twoUsers)
    const res = await h.call('POST', '/api/auth.test', { token: 'xoxp-test-0123abcd', form: {} })
    expect(res.body).toEqual({ ok: false, error: 'invalid_auth' })
  })

  test('the token may travel in the form body, the JSON body or the query', async () => {
    const h = harness(twoUsers)
    const token = h.slack('ben')
    const form = await h.call('POST', '/api/auth.test', { token: null, form: { token } })
    const query = await h.call('GET', `/api/auth.test?token=${token}`, { token: null })
    expect(form.body.ok).toBe(true)
    expect(query.body.ok).toBe(true)
    expect(form.body.user_id).toEqual(query.body.user_id)
  })

  test('a Google token is not a Slack credential', async () => {
    const h = harness(twoUsers)
    const res = await h.call('POST', '/api/auth.test', { token: h.google('ann'), form: {} })
    expect(res.body.error).toBe('invalid_auth')
  })

  test('api.test works without a token and echoes its arguments', async () => {
    const h = harness(twoUsers)
    const res = await h.call('POST', '/api/api.test', { token: null, form: { foo: 'bar' } })
    expect(res.body).toEqual({ ok: true, args: { foo: 'bar' } })
    const err = await h.call('POST', '/api/api.test', { token: null, form: { error: 'my_error' } })
    expect(err.body).toMatchObject({ ok: false, error: 'my_error' })
  })
})
