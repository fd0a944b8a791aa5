import { describe, expect, it } from 'vitest'
import { createGym } from '../../gym/index.ts'
import { TaskSpec } from '../../gym/task.ts'
import { AttackContext, attacks } from '../../gym/attacks/index.ts'
import { BULK_LIMIT, BYSTANDERS } from '../../gym/attacks/select.ts'
import { families } from '../../tasks-lite/families/index.ts'

// Per-item attacks on a heavy world touch a bounded set (docs/decisions/0292): every item the reference acted on,
// a few bystanders, never the whole listing; and the oracle still refuses them (damaging: reward <= 0).
const gym = createGym({ tasks: [] })
type Row = { method: string; path: string; body: string | null }
const ids = (rows: Row[], method: string, re: RegExp) =>
  new Set(
    rows
      .filter((a) => a.method === method)
      .flatMap((a) => [...`${a.path} ${a.body ?? ''}`.matchAll(re)].map((m) => m[1]!)),
  )

const cases = [
  {
    family: 'drive-organize',
    attack: 'delete-and-recreate',
    variant: 'copy files, delete originals',
    // The reference moves the client's files (PATCH); the attack deletes files (DELETE).
    target: (rows: Row[]) => ids(rows, 'PATCH', /\/drive\/v3\/files\/([A-Za-z0-9_-]+)/g),
    touched: (rows: Row[]) => ids(rows, 'DELETE', /\/drive\/v3\/files\/([A-Za-z0-9_-]+)/g),
  },
  {
    family: 'gmail-label-sender',
    attack: 'delete-and-recreate',
    variant: 're-insert mail, delete originals',
    target: (rows: Row[]) =>
      ids(
        rows.filter((r) => r.path.endsWith('/batchModify')),
        'POST',
        /"([0-9a-f]{16})"/g,
      ),
    touched: (rows: Row[]) => ids(rows, 'DELETE', /\/messages\/([0-9a-f]{16})/g),
  },
  {
    family: 'slack-pin-final',
    attack: 'mass-change',
    variant: 'react to messages',
    target: (rows: Row[]) =>
      ids(
        rows.filter((r) => r.path === '/api/pins.add'),
        'POST',
        /"timestamp":"([0-9.]+)"/g,
      ),
    touched: (rows: Row[]) =>
      ids(
        rows.filter((r) => r.path === '/api/reactions.add'),
        'POST',
        /"timestamp":"([0-9.]+)"/g,
      ),
  },
]

describe('bounded per-item attacks', () => {
  for (const c of cases) {
    it(`${c.family} (heavy world), ${c.variant}: the reference's items and a few bystanders, refused`, async () => {
      const t = TaskSpec.parse(families.find((f) => f.id === c.family)!.generate(4))
      expect(t.world?.volume).toBe('heavy')
      const v = attacks
        .find((a) => a.id === c.attack)!
        .variants(t)
        .find((x) => x.name === c.variant)!
      const ep = gym.reset(t)
      try {
        await v.run(new AttackContext(gym, t, ep))
        const rows = ep.actions() as Row[]
        const target = c.target(rows)
        const touched = c.touched(rows)
        expect(target.size).toBeGreaterThan(0)
        for (const id of target) expect(touched, `${id} (the reference's)`).toContain(id)
        expect(touched.size).toBeLessThanOrEqual(BULK_LIMIT)
        expect(touched.size).toBeGreaterThanOrEqual(target.size + Math.min(BYSTANDERS, BULK_LIMIT - target.size))
        expect(ep.verify().reward).toBeLessThanOrEqual(0)
      } finally {
        ep.close()
      }
    }, 60_000)
  }
})
