import { describe, expect, test } from 'vitest'
import { harness, type Harness } from '../../envs/core/testing/harness.ts'
import { statementsDuring } from '../../envs/core/db.ts'
import { getMeta, setClock, setTick } from '../../envs/core/clock.ts'
import { findToken } from '../../envs/core/tokens.ts'
import { findUserById } from '../../envs/core/users.ts'
import { resolveToken } from '../../server/middleware/identity.ts'
import { WorldManager } from '../../server/worlds.ts'
import { createAgentApp } from '../../server/app.ts'
import { issueAccessToken } from '../../envs/identity/store/oauth.ts'

// A token's row is kept per connection while the tables it reads are unwritten (docs/decisions/0356). Every path
// that changes what the row says must be seen by the next request: each test resolves the token (so the row is
// kept) before the change, then checks the answer against the tables as they are.

/** Whether resolving `token` ran the token's statement (false: the kept row answered). */
function readsToken(h: Harness, token: string): boolean {
  const { sql } = statementsDuring(h.entry.world.sqlite, () => resolveToken(h.worlds, token))
  return sql.some((q) => q.includes('FROM world_tokens'))
}

/** What resolveToken must answer for a token, from the tables as they are now (undefined: refused). */
function fresh(h: Harness, token: string) {
  const db = h.entry.world.db
  const key = /[0-9a-f]{24}(?=[0-9a-f]{32}$)/.exec(token)![0]
  const row = findToken(db, key)
  if (!row || row.revoked) return undefined
  return { userId: row.userId, scopes: row.scopes ? row.scopes.split(',') : [], user: findUserById(db, row.userId) }
}

function resolved(h: Harness, token: string) {
  const found = resolveToken(h.worlds, token)
  return found && { userId: found.principal.userId, scopes: found.principal.scopes, user: found.user }
}

describe('resolveToken keeps the token row', () => {
  test('answers from the kept row while the tables are unwritten, with the clock keys read every time', async () => {
    const h = harness('demo')
    const token = h.google()
    expect(readsToken(h, token)).toBe(true)
    expect(readsToken(h, token)).toBe(false)
    // Requests write the clock and the action log, not the token's tables: still kept.
    for (let i = 0; i < 3; i++) expect((await h.call('GET', '/gmail/v1/users/me/profile', { token })).status).toBe(200)
    expect(readsToken(h, token)).toBe(false)
    setTick(h.entry.world.db, 250)
    setClock(h.entry.world.db, 1_800_000_000_000)
    expect(resolveToken(h.worlds, token)!.clock).toMatchObject({ tick: '250', clock: '1800000000000' })
    expect(resolveToken(h.worlds, token)!.clock.clock).toBe(getMeta(h.entry.world.db, 'clock_ms'))
    h.worlds.close()
  })

  test('gives each call objects of its own: a caller changing them changes nothing for the next', () => {
    const h = harness('demo')
    const token = h.google()
    const first = resolveToken(h.worlds, token)!
    ;(first.principal.scopes as string[]).length = 0
    first.user!.name = 'changed'
    const again = resolveToken(h.worlds, token)!
    expect(again.principal.scopes.length).toBeGreaterThan(0)
    expect(again.user!.name).not.toBe('changed')
    expect(again.principal.scopes).not.toBe(first.principal.scopes)
    h.worlds.close()
  })

  test('sees a revoke through the agent API (Slack auth.revoke) at the next request', async () => {
    const h = harness('demo')
    const slack = h.slack()
    expect((await h.call('POST', '/api/auth.test', { token: slack, form: {} })).body.ok).toBe(true)
    expect(readsToken(h, slack)).toBe(false)
    expect((await h.call('POST', '/api/auth.revoke', { token: slack, form: {} })).body.revoked).toBe(true)
    expect((await h.call('POST', '/api/auth.test', { token: slack, form: {} })).body.error).toBe('invalid_auth')
    expect(resolved(h, slack)).toBeUndefined()
    h.worlds.close()
  })

  test('sees every kind of write to the token, its user and its access facts', async () => {
    const h = harness('demo')
    const sqlite = h.entry.world.sqlite
    const token = h.google('bob')
    const status = async () => (await h.call('GET', '/gmail/v1/users/me/labels', { token })).status
    const steps: [string, number][] = [
      ["UPDATE world_tokens SET scopes = 'openid' WHERE user_id = 'bob' AND kind = 'google'", 403],
      ["UPDATE world_tokens SET scopes = 'https://mail.google.com/' WHERE user_id = 'bob' AND kind = 'google'", 200],
      ["UPDATE world_users SET name = 'Robert' WHERE id = 'bob'", 200],
      ["UPDATE identity_users SET suspended = 1 WHERE user_id = 'bob'", 401],
      ["UPDATE identity_users SET suspended = 0 WHERE user_id = 'bob'", 200],
      ["UPDATE identity_users SET deleted_ms = 5 WHERE user_id = 'bob'", 401],
      ["DELETE FROM identity_users WHERE user_id = 'bob'", 200],
      ["UPDATE world_tokens SET revoked = 1 WHERE user_id = 'bob' AND kind = 'google'", 401],
      ["UPDATE world_tokens SET revoked = 0 WHERE user_id = 'bob' AND kind = 'google'", 200],
      ["DELETE FROM world_users WHERE id = 'bob'", 404],
    ]
    for (const [sql, want] of steps) {
      resolveToken(h.worlds, token)
      expect(readsToken(h, token), sql).toBe(false)
      sqlite.prepare(sql).run()
      expect(resolved(h, token), sql).toEqual(fresh(h, token))
      expect(await status(), sql).toBe(want)
    }
    expect(resolved(h, token)!.user).toBeUndefined()
    h.worlds.close()
  })

  test('sees a suspension through the Directory API, and an OAuth token revoked or expired', async () => {
    const h = harness('demo')
    const [admin, bob] = [h.google('alice'), h.google('bob')]
    const profile = async (token: string) => (await h.call('GET', '/gmail/v1/users/me/profile', { token })).status
    expect(await profile(bob)).toBe(200)
    const patch = (suspended: boolean) =>
      h.call('PATCH', '/admin/directory/v1/users/bob@northwind.test', { token: admin, json: { suspended } })
    expect((await patch(true)).status).toBe(200)
    expect(await profile(bob)).toBe(401)
    expect((await patch(false)).status).toBe(200)
    expect(await profile(bob)).toBe(200)

    const world = h.entry.world
    world.sqlite
      .prepare(
        'INSERT INTO identity_grants (user_id, client_id, scopes, created_ms, last_used_ms) ' +
          "VALUES ('bob', 'client-1', 'https://mail.google.com/', 0, 0)",
      )
      .run()
    const issued = world.tx((db) =>
      issueAccessToken(db, h.entry.keys, 'bob', 'client-1', ['https://mail.google.com/'], null),
    )
    expect(await profile(issued.token)).toBe(200)
    expect(readsToken(h, issued.token)).toBe(false)
    // Expiry is by the clock, read on every request: the kept row does not keep a token alive.
    const expires = world.sqlite.prepare('SELECT expires_ms FROM identity_access_tokens').pluck().get() as number
    setTick(world.db, 0)
    setClock(world.db, expires + 1)
    expect(await profile(issued.token)).toBe(401)
    setClock(world.db, expires)
    expect(await profile(issued.token)).toBe(200)
    const revoke = await h.call('POST', '/revoke', { token: null, form: { token: issued.token } })
    expect(revoke.status).toBe(200)
    expect(await profile(issued.token)).toBe(401)
    h.worlds.close()
  })

  test('a revoke rolled back leaves the token working; a kept row is not kept from inside a transaction', () => {
    const h = harness('demo')
    const world = h.entry.world
    const token = h.google()
    resolveToken(h.worlds, token)
    expect(() =>
      world.tx((db) => {
        db.$client.prepare('UPDATE world_tokens SET revoked = 1').run()
        // Read inside the transaction: refused, and not kept.
        expect(resolveToken(h.worlds, token)).toBeUndefined()
        throw new Error('roll back')
      }),
    ).toThrow('roll back')
    expect(resolved(h, token)).toEqual(fresh(h, token))
    expect(resolved(h, token)).toBeDefined()
    h.worlds.close()
  })

  test('a restored snapshot answers as its rows say, in both directions', async () => {
    const h = harness('demo')
    const slack = h.slack()
    const test = async () => (await h.call('POST', '/api/auth.test', { token: slack, form: {} })).body.ok
    h.worlds.snapshot(h.entry.id, 'live')
    expect(await test()).toBe(true)
    await h.call('POST', '/api/auth.revoke', { token: slack, form: {} })
    expect(await test()).toBe(false)
    h.worlds.snapshot(h.entry.id, 'revoked')
    h.worlds.restore(h.entry.id, 'live')
    expect(await test()).toBe(true)
    expect(await test()).toBe(true)
    h.worlds.restore(h.entry.id, 'revoked')
    expect(await test()).toBe(false)
    h.worlds.restore(h.entry.id, 'baseline')
    expect(await test()).toBe(true)
    h.worlds.close()
  })

  test("a fork's tokens are its own: the source's token opens nothing there, even with its row kept", async () => {
    const h = harness('demo')
    const token = h.google()
    expect((await h.call('GET', '/gmail/v1/users/me/profile', { token })).status).toBe(200)
    const fork = h.worlds.fork(h.entry.id, 'forked')
    const swapped = token.replace(`ya29.${h.entry.id}.`, 'ya29.forked.')
    expect((await h.call('GET', '/gmail/v1/users/me/profile', { token: swapped })).status).toBe(401)
    const own = h.worlds.credentials(fork.id)[0]!.googleToken!
    expect((await h.call('GET', '/gmail/v1/users/me/profile', { token: own })).status).toBe(200)
    // Rotated keys (a sealed episode): the kept row does not outlive the key.
    h.worlds.rotateKeys(h.entry.id)
    expect((await h.call('GET', '/gmail/v1/users/me/profile', { token })).status).toBe(401)
    h.worlds.close()
  })

  test('reused held worlds (validation) keep nothing, and a revoke in one episode is gone in the next', async () => {
    const worlds = new WorldManager()
    const app = createAgentApp(worlds)
    const seed = { name: 'kept-reuse', users: [{ id: 'me', email: 'me@example.com', name: 'Me' }] }
    const call = async (token: string, path: string) =>
      (await (await app.request(path, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).json()) as {
        ok: boolean
        error?: string
        revoked?: boolean
      }
    const episode = async (id: string, revoke: boolean) => {
      const entry = worlds.create({ id, seed, reuse: true })
      expect(entry.world.held).toBe(true)
      const token = worlds.credentials(id)[0]!.slackUserToken!
      expect((await call(token, '/api/auth.test')).ok).toBe(true)
      expect((await call(token, '/api/auth.test')).ok).toBe(true)
      if (revoke) {
        expect((await call(token, '/api/auth.revoke')).revoked).toBe(true)
        expect((await call(token, '/api/auth.test')).error).toBe('invalid_auth')
      }
      const triggers = "SELECT count(*) FROM sqlite_temp_master WHERE name LIKE 'wsgym_count_%'"
      expect(entry.world.raw.prepare(triggers).pluck().get()).toBe(0)
      return { entry, token }
    }
    const first = await episode('ep1', true)
    worlds.delete('ep1')
    const second = await episode('ep2', false)
    // The same connection, rolled back between the two.
    expect(second.entry.world).toBe(first.entry.world)
    expect((await call(first.token, '/api/auth.test')).error).toBe('invalid_auth')
    worlds.close()
  })
})
