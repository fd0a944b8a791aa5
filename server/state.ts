import type { World } from '../envs/core/world.ts'
import { nowMs } from '../envs/core/clock.ts'
import { listUsers } from '../envs/core/users.ts'
import type { WorldState } from '../envs/core/diff.ts'
import { services } from './registry.ts'

/** The versioned, documented view of a whole world (what `/worlds/:id/state` serves and oracles read). */
export function worldState(world: World): WorldState {
  return {
    version: 1,
    clockMs: nowMs(world.db),
    users: listUsers(world.db).map((u) => ({ id: u.id, email: u.email, name: u.name, timeZone: u.timeZone })),
    services: Object.fromEntries(services.map((s) => [s.name, s.dump(world)])),
  }
}
