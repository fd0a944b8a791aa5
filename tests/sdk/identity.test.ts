import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google } from 'googleapis'
import { WebClient } from '@slack/web-api'
import { startSdkServer, type SdkServer } from './server.ts'

let server: SdkServer
beforeAll(async () => {
  server = await startSdkServer('demo')
})
afterAll(async () => {
  await server.close()
})

describe('gmail.users.getProfile through googleapis', () => {
  test("returns the profile of the token's user with only rootUrl changed", async () => {
    const gmail = google.gmail({ version: 'v1', auth: server.auth('bob'), rootUrl: server.url })
    const res = await gmail.users.getProfile({ userId: 'me' })
    expect(res.status).toBe(200)
    expect(res.data.emailAddress).toBe('bob@northwind.test')
    expect(typeof res.data.historyId).toBe('string')
  })

  test('a bad token surfaces as a 401 GaxiosError', async () => {
    // (An OAuth2 client would try to refresh on 401; a raw header shows the server's answer.)
    const gmail = google.gmail({ version: 'v1', rootUrl: server.url })
    const call = gmail.users.getProfile(
      { userId: 'me' },
      { retry: false, headers: { Authorization: 'Bearer ya29.sdk.0000' } },
    )
    await expect(call).rejects.toMatchObject({
      status: 401,
      response: { data: { error: { status: 'UNAUTHENTICATED' } } },
    })
  })

  test("another user's mailbox is refused", async () => {
    const gmail = google.gmail({ version: 'v1', auth: server.auth('bob'), rootUrl: server.url })
    await expect(gmail.users.getProfile({ userId: 'alice@northwind.test' }, { retry: false })).rejects.toMatchObject({
      status: 403,
    })
  })
})

describe('auth.test through @slack/web-api', () => {
  test("identifies the token's user", async () => {
    const res = await server.slack('carol').auth.test()
    expect(res.ok).toBe(true)
    expect(res.team).toBe('Northwind Labs')
    expect(typeof res.user_id).toBe('string')
  })

  test('an invalid token rejects with invalid_auth', async () => {
    const client = new WebClient('xoxp-sdk-0000', { slackApiUrl: `${server.url}api/`, retryConfig: { retries: 0 } })
    await expect(client.auth.test()).rejects.toMatchObject({ data: { ok: false, error: 'invalid_auth' } })
  })
})

describe('api.test through @slack/web-api', () => {
  test('echoes arguments', async () => {
    const res = await server.slack('carol').api.test({ hello: 'world' } as never)
    expect(res.args).toMatchObject({ hello: 'world' })
  })
})
