import { expect } from 'vitest'
import { World } from '../../envs/core/world.ts'
import type { Harness } from '../../envs/core/testing/harness.ts'
import { worldState } from '../../server/state.ts'

// What the robustness sweeps check after a request that failed: the world's services are as they were.

const servicesOnly = (world: World) => JSON.stringify(worldState(world).services)

/**
 * Counts writes to the world, except to the action log and the clock (which every request moves): temporary
 * triggers (on this connection only) call a counting function. A write that is rolled back still counts, which
 * only makes the check below build the state view for nothing.
 */
export function countWrites(h: Harness): () => number {
  const sqlite = h.entry.world.sqlite
  let n = 0
  sqlite.function('robustness_write', () => ++n)
  const list = sqlite.prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
  const tables = list.all() as { name: string }[]
  for (const { name } of tables) {
    if (name === 'world_action_log') continue
    for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
      const when = name === 'world_meta' ? `WHEN ${op === 'DELETE' ? 'OLD' : 'NEW'}.key <> 'clock_ms'` : ''
      sqlite.exec(`CREATE TEMP TRIGGER IF NOT EXISTS "robustness_${name}_${op}" AFTER ${op} ON main."${name}" ${when}
        BEGIN SELECT robustness_write(); END`)
    }
  }
  return () => n
}

/** The last snapshot watch() took of a harness's world, and the write count it was taken at. */
const taken = new WeakMap<Harness, { snap: ReturnType<World['snapshot']>; at: number }>()

/**
 * Remembers the world now; the returned check expects the services' state view to be unchanged. The view (a dump of
 * every service, ~150 ms on the demo seed) is only built when something was written since: no write, same view. The
 * snapshot is taken again only when a counted write happened since the last one (the clock and the action log, which
 * every request moves, are not in the services' view).
 */
export function watch(h: Harness, writes: () => number): (label: string) => void {
  const start = writes()
  let last = taken.get(h)
  if (last?.at !== start) taken.set(h, (last = { snap: h.entry.world.snapshot(), at: start }))
  const snap = last.snap
  return (label) => {
    if (writes() === start) return
    const before = World.from(snap)
    try {
      expect(servicesOnly(h.entry.world), label).toBe(servicesOnly(before))
    } finally {
      before.close()
    }
  }
}

export function expectGoogleClientError(res: { status: number; body: any; text: string }, label: string) {
  expect(res.status, `${label} → ${res.status} ${res.text.slice(0, 200)}`).toBeLessThan(500)
  if (res.status >= 400 && res.body !== undefined) {
    expect(res.body.error?.code, label).toBe(res.status)
    expect(typeof res.body.error?.message, label).toBe('string')
  }
}
