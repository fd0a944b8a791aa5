import { createSign } from 'node:crypto'
import { expect } from 'vitest'
import type { Harness } from '../../envs/core/testing/harness.ts'
import { nowMs } from '../../envs/core/clock.ts'

const seg = (b: Buffer | string) => Buffer.from(b).toString('base64url')

/**
 * A service account's own access token (the JWT-bearer grant without `sub`): `admin` (a holder of the project's
 * Owner role) creates a key file, and an assertion signed with it is exchanged at the file's token URI.
 */
export async function ownToken(h: Harness, admin: string, account: string, scopes: readonly string[]) {
  const key = await h.call('POST', `/v1/projects/-/serviceAccounts/${account}/keys`, { token: admin, json: {} })
  const file = JSON.parse(Buffer.from(key.body.privateKeyData, 'base64').toString()) as Record<string, string>
  const iat = Math.floor(nowMs(h.entry.world.db) / 1000)
  const claims = { iss: account, aud: file.token_uri, scope: scopes.join(' '), iat, exp: iat + 3600 }
  const header = { alg: 'RS256', typ: 'JWT', kid: file.private_key_id }
  const input = `${seg(JSON.stringify(header))}.${seg(JSON.stringify(claims))}`
  const assertion = `${input}.${createSign('RSA-SHA256').update(input).sign(file.private_key!, 'base64url')}`
  const uri = new URL(file.token_uri!)
  const form = { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }
  const got = await h.call('POST', `${uri.pathname}${uri.search}`, { token: null, form })
  expect(got.status).toBe(200)
  return got.body.access_token as string
}
