import type { World } from '../../envs/core/world.ts'
import { stmt } from '../../envs/core/db.ts'
import { nowMs } from '../../envs/core/clock.ts'

const MAX_BODY = 64 * 1024

export type ActionRecord = {
  userId: string | null
  service: string | null
  operationId: string | null
  method: string
  path: string
  query: string
  body: string | null
  status: number
}

/** Appends one agent call to the world's action log (after the response is known). */
export function logAction(world: World, record: ActionRecord): void {
  const body = record.body !== null && record.body.length > MAX_BODY ? `${record.body.slice(0, MAX_BODY)}…[truncated]` : record.body
  const db = world.db
  stmt(db, 'INSERT INTO world_action_log (at_ms, user_id, service, operation_id, method, path, query, body, status) VALUES (?,?,?,?,?,?,?,?,?)')
    .run(nowMs(db), record.userId, record.service, record.operationId, record.method, record.path, record.query, body, record.status)
}
