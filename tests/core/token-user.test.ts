import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { findToken } from '../../envs/core/tokens.ts'
import { findUserById } from '../../envs/core/users.ts'
import { resolveToken, userOf } from '../../server/middleware/identity.ts'

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
        userId: row.userId, tokenKind: row.kind, scopes: row.scopes ? row.scopes.split(',') : [], tokenKey: row.key,
      })
      expect(userOf(found)).toEqual(findUserById(db, row.userId))
      expect(userOf(found)?.id).toBe(row.userId)
    }
    h.worlds.close()
  })

  test('refuses a revoked token, and a token whose user is gone has no user (401/404 and invalid_auth as before)',
    async () => {
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

describe('checkGoogleAccess', () => {
  test('refuses a suspended or deleted user\'s token and serves an active one (one read of both rows)', async () => {
    const h = harness('demo')
    const sqlite = h.entry.world.sqlite
    const token = h.google()
    const user = resolveToken(h.worlds, token)!.principal.userId
    const facts = (suspended: number, deleted: number | null) => {
      sqlite.prepare('INSERT OR REPLACE INTO identity_users (user_id, suspended, org_unit_path, deleted_ms, ' +
        "created_ms, change_password) VALUES (?, ?, '/', ?, 0, 0)").run(user, suspended, deleted)
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
