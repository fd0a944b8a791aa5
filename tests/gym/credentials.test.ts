import { afterAll, describe, expect, it } from 'vitest'
import { createGym } from '../../gym/index.ts'
import { TaskSpec } from '../../gym/task.ts'
import { gmailReplyPo } from '../../tasks-lite/families/gmail-reply-po.ts'
import { listTokens } from '../../envs/core/tokens.ts'
import { listUsers } from '../../envs/core/users.ts'

const task = TaskSpec.parse(gmailReplyPo.generate(3))
const gym = createGym({ tasks: [task] })
afterAll(() => gym.worlds.close())

/** What credentials() gave before it could make one user's tokens alone: every user, first unrevoked token. */
function everyUser(worldId: string) {
  const entry = gym.worlds.get(worldId)
  const tokens = listTokens(entry.world.db).filter((t) => !t.revoked)
  return listUsers(entry.world.db).map((u) => {
    const of = (kind: 'google' | 'slack_user') => {
      const t = tokens.find((x) => x.userId === u.id && x.kind === kind)
      return t ? entry.keys.token(kind, t.key) : undefined
    }
    return { id: u.id, email: u.email, name: u.name, googleToken: of('google'), slackUserToken: of('slack_user') }
  })
}

const profile = async (token: string | undefined) => {
  const res = await gym.app.request('/gmail/v1/users/me/profile', { headers: { authorization: `Bearer ${token}` } })
  return { status: res.status, email: ((await res.json()) as { emailAddress?: string }).emailAddress }
}

describe('WorldManager.credentials', () => {
  it("gives one user's credentials equal to that user's entry among all users", () => {
    const ep = gym.reset(task.id)
    const all = gym.worlds.credentials(ep.worldId)
    expect(all).toEqual(everyUser(ep.worldId))
    expect(all.length).toBeGreaterThan(1)
    for (const u of all) expect(gym.worlds.credentials(ep.worldId, u.id)).toEqual([u])
    expect(gym.worlds.credentials(ep.worldId, 'nobody')).toEqual([])
    expect(ep.credentials()).toEqual(all.find((u) => u.id === task.actor))
    ep.close()
  })

  it('skips revoked tokens and takes the first live one in table order; the token it gives works', async () => {
    const ep = gym.reset(task.id)
    const db = ep.entry.world.sqlite
    const other = gym.worlds.credentials(ep.worldId).find((u) => u.id !== task.actor)!
    // Two more Google tokens for the colleague; the original one and the first new one are revoked.
    const insert = db.prepare(`INSERT INTO world_tokens (key, user_id, kind, scopes, revoked)
      SELECT ?, user_id, kind, scopes, ? FROM world_tokens WHERE key = ?`)
    const original = db
      .prepare("SELECT key FROM world_tokens WHERE user_id = ? AND kind = 'google'")
      .pluck()
      .get(other.id) as string
    // Keys shaped like the original (tokens carry a fixed-length key).
    const [revoked, live] = ['0', '1'].map((c) => `${original.slice(0, -1)}${original.endsWith(c) ? '2' : c}`)
    insert.run(revoked, 1, original)
    insert.run(live, 0, original)
    db.prepare("UPDATE world_tokens SET revoked = 1 WHERE user_id = ? AND kind = 'google' AND key <> ?").run(
      other.id,
      live,
    )
    const [one] = gym.worlds.credentials(ep.worldId, other.id)
    expect(one).toEqual(everyUser(ep.worldId).find((u) => u.id === other.id))
    expect(one!.googleToken).toBe(ep.entry.keys.token('google', live!))
    expect(await profile(one!.googleToken)).toEqual({ status: 200, email: other.email })
    expect((await profile(other.googleToken)).status).toBe(401)
    // No live Google token left: none is given, in both forms.
    db.prepare('UPDATE world_tokens SET revoked = 1 WHERE key = ?').run(live)
    expect(gym.worlds.credentials(ep.worldId, other.id)[0]!.googleToken).toBeUndefined()
    expect(gym.worlds.credentials(ep.worldId)).toEqual(everyUser(ep.worldId))
    ep.close()
  })
})
