import { stmt, type Db } from '../../core/db.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { parseJson } from './core.ts'

type BarrierRow = { id: string; primary_group: string; barriered: string; subjects: string }

const groupMembers = (db: Db, id: string) =>
  parseJson<string[]>(
    (stmt(db, 'SELECT users FROM slack_usergroups WHERE id = ?').get(id) as { users: string } | undefined)?.users,
    [],
  )

/**
 * Refuses a DM (`im`) or group DM (`mpim`) between members an information barrier separates
 * (Slack answers `restricted_action` on both sides of the barrier).
 */
export function assertNoBarrier(db: Db, users: string[], subject: 'im' | 'mpim') {
  const barriers = stmt(db, 'SELECT * FROM slack_barriers').all() as BarrierRow[]
  for (const b of barriers) {
    if (!parseJson<string[]>(b.subjects, []).includes(subject)) continue
    const primary = new Set(groupMembers(db, b.primary_group))
    const other = new Set(parseJson<string[]>(b.barriered, []).flatMap((g) => groupMembers(db, g)))
    if (users.some((u) => primary.has(u)) && users.some((u) => other.has(u) && !primary.has(u)))
      throw new SlackApiError('restricted_action')
  }
}
