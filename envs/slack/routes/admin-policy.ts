import { z } from 'zod'
import { stmt, type Db } from '../../core/db.ts'
import { createSlackRouter, slackInt, slackMethod, type WorldContext } from '../../core/http.ts'
import { slackId } from '../../core/ids.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { cursorPage, nowSec, parseJson, teamId, userById } from '../store/core.ts'
import { idList, requireAdmin } from '../store/admin.ts'

// Information barriers (admin.barriers.*, enforced on DMs and group DMs) and authentication policy
// assignments (admin.auth.policy.*). Deviation: Slack serves these to Enterprise Grid orgs only.

export const adminPolicyRouter = createSlackRouter()
const opt = () => z.string().optional()
const USER = ['slack_user'] as const

function admin<S extends z.ZodType>(
  name: string,
  args: S,
  scope: string,
  handler: (c: WorldContext, a: z.output<S>) => Record<string, unknown>,
) {
  slackMethod(adminPolicyRouter, {
    name,
    args,
    scopes: { user: [scope] },
    tokens: USER,
    handler: (c, a) => {
      requireAdmin(c)
      return handler(c, a)
    },
  })
}

type BarrierRow = { id: string; primary_group: string; barriered: string; subjects: string; updated: number }
const groupRef = (db: Db, id: string) => {
  const g = stmt(db, 'SELECT id, name FROM slack_usergroups WHERE id = ?').get(id) as
    { id: string; name: string } | undefined
  if (!g) throw new SlackApiError('invalid_usergroup')
  return g
}
const barrierWire = (db: Db, b: BarrierRow) => ({
  id: b.id,
  enterprise_id: teamId(db),
  primary_usergroup: groupRef(db, b.primary_group),
  barriered_from_usergroups: parseJson<string[]>(b.barriered, []).map((g) => groupRef(db, g)),
  restricted_subjects: parseJson<string[]>(b.subjects, []),
  date_update: b.updated,
})
const SUBJECTS = ['im', 'mpim', 'call']
/** Checked barrier fields: Slack requires all three subjects and groups that exist and differ. */
function barrierFields(
  db: Db,
  a: { primary_usergroup_id?: string; barriered_from_usergroup_ids?: unknown; restricted_subjects?: unknown },
) {
  if (!a.primary_usergroup_id) throw new SlackApiError('invalid_arguments')
  groupRef(db, a.primary_usergroup_id)
  const from = idList(a.barriered_from_usergroup_ids)
  if (from.length === 0 || from.includes(a.primary_usergroup_id)) throw new SlackApiError('invalid_arguments')
  for (const g of from) groupRef(db, g)
  const subjects = idList(a.restricted_subjects)
  if (subjects.length !== SUBJECTS.length || !SUBJECTS.every((s) => subjects.includes(s)))
    throw new SlackApiError('invalid_restricted_subjects')
  return { primary: a.primary_usergroup_id, from, subjects }
}
const fields = {
  primary_usergroup_id: opt(),
  barriered_from_usergroup_ids: z.unknown().optional(),
  restricted_subjects: z.unknown().optional(),
}
const barrierOf = (db: Db, id: string | undefined) => {
  const b = (id ? stmt(db, 'SELECT * FROM slack_barriers WHERE id = ?').get(id) : undefined) as BarrierRow | undefined
  if (!b) throw new SlackApiError('barrier_not_found')
  return b
}

admin('admin.barriers.create', z.object(fields), 'admin.barriers:write', (c, a) =>
  c.var.world.tx((db) => {
    const f = barrierFields(db, a)
    if (stmt(db, 'SELECT 1 FROM slack_barriers WHERE primary_group = ?').get(f.primary))
      throw new SlackApiError('barrier_already_exists')
    const id = slackId(db, 'Eb')
    stmt(db, 'INSERT INTO slack_barriers (id, primary_group, barriered, subjects, updated) VALUES (?,?,?,?,?)').run(
      id,
      f.primary,
      JSON.stringify(f.from),
      JSON.stringify(f.subjects),
      nowSec(db),
    )
    return { barrier: barrierWire(db, barrierOf(db, id)) }
  }),
)
admin('admin.barriers.update', z.object({ barrier_id: opt(), ...fields }), 'admin.barriers:write', (c, a) =>
  c.var.world.tx((db) => {
    const b = barrierOf(db, a.barrier_id)
    const f = barrierFields(db, a)
    stmt(db, 'UPDATE slack_barriers SET primary_group = ?, barriered = ?, subjects = ?, updated = ? WHERE id = ?').run(
      f.primary,
      JSON.stringify(f.from),
      JSON.stringify(f.subjects),
      nowSec(db),
      b.id,
    )
    return { barrier: barrierWire(db, barrierOf(db, b.id)) }
  }),
)
admin('admin.barriers.delete', z.object({ barrier_id: opt() }), 'admin.barriers:write', (c, a) =>
  c.var.world.tx((db) => {
    stmt(db, 'DELETE FROM slack_barriers WHERE id = ?').run(barrierOf(db, a.barrier_id).id)
    return {}
  }),
)
admin(
  'admin.barriers.list',
  z.object({ cursor: opt(), limit: slackInt().optional() }),
  'admin.barriers:read',
  (c, a) => {
    const db = c.var.world.db
    const { page, next } = cursorPage(
      stmt(db, 'SELECT * FROM slack_barriers ORDER BY rowid').all() as BarrierRow[],
      a.limit ?? 100,
      a.cursor,
    )
    return { barriers: page.map((b) => barrierWire(db, b)), response_metadata: { next_cursor: next } }
  },
)

// Authentication policies: which members must sign in with e-mail and password despite SSO.
const POLICIES = ['email_password']
const policyArgs = z.object({ policy_name: opt(), entity_type: opt(), entity_ids: z.unknown().optional() })
function policyCheck(
  db: Db,
  a: { policy_name?: string; entity_type?: string; entity_ids?: unknown },
  needIds: boolean,
) {
  if (!a.policy_name || !POLICIES.includes(a.policy_name)) throw new SlackApiError('invalid_policy_name')
  if (a.entity_type !== undefined && a.entity_type !== 'USER') throw new SlackApiError('invalid_entity_type')
  const ids = idList(a.entity_ids)
  if (needIds && (ids.length === 0 || ids.length > 1000)) throw new SlackApiError('invalid_arguments')
  for (const id of ids) {
    const u = userById(db, id)
    if (!u || u.is_bot) throw new SlackApiError('invalid_entity_id')
  }
  return ids
}
const total = (db: Db, policy: string) =>
  (stmt(db, 'SELECT COUNT(*) AS n FROM slack_auth_policy WHERE policy = ?').get(policy) as { n: number }).n
admin('admin.auth.policy.assignEntities', policyArgs, 'admin.users:write', (c, a) =>
  c.var.world.tx((db) => {
    for (const id of policyCheck(db, a, true))
      stmt(
        db,
        "INSERT OR IGNORE INTO slack_auth_policy (policy, entity_id, entity_type, added) VALUES (?, ?, 'USER', ?)",
      ).run(a.policy_name, id, nowSec(db))
    return { entity_total_count: total(db, a.policy_name!) }
  }),
)
admin('admin.auth.policy.removeEntities', policyArgs, 'admin.users:write', (c, a) =>
  c.var.world.tx((db) => {
    for (const id of policyCheck(db, a, true))
      stmt(db, 'DELETE FROM slack_auth_policy WHERE policy = ? AND entity_id = ?').run(a.policy_name, id)
    return { entity_total_count: total(db, a.policy_name!) }
  }),
)
admin(
  'admin.auth.policy.getEntities',
  policyArgs.extend({ cursor: opt(), limit: slackInt().optional() }),
  'admin.users:read',
  (c, a) => {
    const db = c.var.world.db
    policyCheck(db, a, false)
    const rows = stmt(db, 'SELECT * FROM slack_auth_policy WHERE policy = ? ORDER BY added, rowid').all(
      a.policy_name,
    ) as { entity_id: string; entity_type: string; added: number }[]
    const { page, next } = cursorPage(rows, a.limit ?? 100, a.cursor)
    return {
      entities: page.map((r) => ({ entity_id: r.entity_id, entity_type: r.entity_type, date_added: r.added })),
      entity_total_count: rows.length,
      response_metadata: { next_cursor: next },
    }
  },
)
