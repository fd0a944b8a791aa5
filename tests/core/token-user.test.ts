import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { findToken } from '../../envs/core/tokens.ts'
import { findUserById } from '../../envs/core/users.ts'
import { resolveToken, userOf } from '../../server/middleware/identity.ts'
import { getMeta, setClock, setTick, setTickLimit } from '../../envs/core/clock.ts'
import { issueAccessToken } from '../../envs/identity/store/oauth.ts'

// Identity reads a token's row and its user's in one statement; it must answer what findToken + findUserById did.

describe('resolveToken', () => {
  test('gives every token of the world the principal and user the two lookups give', () => {
    const h = harness('demo')
    const db = h.entry.world.db
    const users = h.worlds.credentials(h.entry.id)
    const tokens = users.flatMap((u) => [u.googleToken, u.slackUserToken].filter((t): t is string => !!t))
    expect(tokens.length).toBeGreaterThan(4)
    for (const token of tokens) {
      const found = resolveToken(h.worlds, token)!
      const row = findToken(db, found.principal.tokenKey!)!
      expect(found.principal).toEqual({
        userId: row.userId,
        tokenKind: row.kind,
        scopes: row.scopes ? row.scopes.split(',') : [],
        tokenKey: row.key,
      })
      expect(userOf(found)).toEqual(findUserById(db, row.userId))
      expect(userOf(found)?.id).toBe(row.userId)
    }
    h.worlds.close()
  })

  test('refuses a revoked token, and a token whose user is gone has no user (401/404 and invalid_auth as before)', async () => {
    const h = harness('demo')
    const sqlite = h.entry.world.sqlite
    const [google, slack] = [h.google(), h.slack()]
    const user = resolveToken(h.worlds, google)!.principal.userId
    sqlite.prepare('DELETE FROM world_users WHERE id = ?').run(user)
    expect(userOf(resolveToken(h.worlds, google)!)).toBeUndefined()
    expect((await h.call('GET', '/gmail/v1/users/me/profile', { token: google })).status).toBe(404)
    expect((await h.call('POST', '/api/auth.test', { token: slack, form: {} })).body.error).toBe('invalid_auth')
    sqlite.prepare('UPDATE world_tokens SET revoked = 1').run()
    expect(resolveToken(h.worlds, google)).toBeUndefined()
    expect((await h.call('GET', '/gmail/v1/users/me/profile', { token: google })).status).toBe(401)
    h.worlds.close()
  })
})

describe('resolveToken reads the clock keys and the access facts with the token', () => {
  test('gives the clock keys as stored (unset ones undefined) and each Google token its access row and facts', () => {
    const h = harness('demo')
    const db = h.entry.world.db
    const sqlite = h.entry.world.sqlite
    const users = h.worlds.credentials(h.entry.id)
    const tokens = users.flatMap((u) => [u.googleToken, u.slackUserToken].filter((t): t is string => !!t))
    const keys = () => ({
      tick: getMeta(db, 'tick_ms'),
      limit: getMeta(db, 'tick_limit_ms'),
      used: getMeta(db, 'ticked_ms'),
      clock: getMeta(db, 'clock_ms'),
    })
    const facts = sqlite.prepare(
      'SELECT a.user_id AS a_user, a.client_id AS a_client, a.expires_ms AS a_expires, ' +
        'u.suspended, u.deleted_ms FROM (SELECT 1) LEFT JOIN identity_access_tokens a ON a.key = ? ' +
        'LEFT JOIN identity_users u ON u.user_id = ?',
    )
    const check = () => {
      for (const token of tokens) {
        const found = resolveToken(h.worlds, token)!
        expect(found.clock).toEqual(keys())
        if (found.principal.tokenKind !== 'google') expect(found.access).toBeUndefined()
        else expect(found.access).toEqual(facts.get(found.principal.tokenKey, found.principal.userId))
      }
    }
    check()
    setTick(db, 250)
    setTickLimit(db, 1000)
    setClock(db, 1_700_000_000_123)
    check()
    sqlite.prepare("DELETE FROM world_meta WHERE key IN ('tick_ms', 'clock_ms')").run()
    check()
    expect(resolveToken(h.worlds, tokens[0]!)!.clock).toMatchObject({ tick: undefined, clock: undefined })
    h.worlds.close()
  })

  test('an OAuth-issued token answers until its expiry by the world clock, then 401, and stamps its grant', async () => {
    const h = harness('demo')
    const world = h.entry.world
    const user = resolveToken(h.worlds, h.google())!.principal.userId
    world.sqlite
      .prepare(
        'INSERT INTO identity_grants (user_id, client_id, scopes, created_ms, last_used_ms) ' +
          "VALUES (?, 'client-1', 'https://mail.google.com/', 0, 0)",
      )
      .run(user)
    const { token } = world.tx((db) =>
      issueAccessToken(db, h.entry.keys, user, 'client-1', ['https://mail.google.com/'], null),
    )
    const expires = world.sqlite
      .prepare('SELECT expires_ms FROM identity_access_tokens WHERE user_id = ?')
      .pluck()
      .get(user) as number
    const lastUsed = () =>
      world.sqlite.prepare("SELECT last_used_ms FROM identity_grants WHERE client_id = 'client-1'").pluck().get()
    setTick(world.db, 0)
    setClock(world.db, expires)
    expect((await h.call('GET', '/gmail/v1/users/me/profile', { token })).status).toBe(200)
    expect(lastUsed()).toBe(expires)
    setClock(world.db, expires + 1)
    expect((await h.call('GET', '/gmail/v1/users/me/profile', { token })).status).toBe(401)
    h.worlds.close()
  })
})

describe('checkGoogleAccess', () => {
  test("refuses a suspended or deleted user's token and serves an active one (one read of both rows)", async () => {
    const h = harness('demo')
    const sqlite = h.entry.world.sqlite
    const token = h.google()
    const user = resolveToken(h.worlds, token)!.principal.userId
    const facts = (suspended: number, deleted: number | null) => {
      sqlite
        .prepare(
          'INSERT OR REPLACE INTO identity_users (user_id, suspended, org_unit_path, deleted_ms, ' +
            "created_ms, change_password) VALUES (?, ?, '/', ?, 0, 0)",
        )
        .run(user, suspended, deleted)
    }
    const status = async () => (await h.call('GET', '/gmail/v1/users/me/labels', { token })).status
    sqlite.prepare('DELETE FROM identity_users WHERE user_id = ?').run(user)
    expect(await status()).toBe(200)
    facts(1, null)
    expect(await status()).toBe(401)
    facts(0, 5)
    expect(await status()).toBe(401)
    facts(0, null)
    expect(await status()).toBe(200)
    h.worlds.close()
  })
})
