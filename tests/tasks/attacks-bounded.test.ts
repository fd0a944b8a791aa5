import { describe, expect, it } from 'vitest'
import { createGym } from '../../gym/index.ts'
import { TaskSpec } from '../../gym/task.ts'
import { AttackContext, attacks } from '../../gym/attacks/index.ts'
import { BULK_LIMIT, BYSTANDERS, NAMED } from '../../gym/attacks/select.ts'
import { families } from '../../tasks-lite/families/index.ts'

// Per-item attacks on a heavy world touch a bounded set (docs/decisions/0292, 0398): every item the reference acted
// on, one more the task names and a bystander, never the whole listing (nor does a one-call batchModify); and the
// oracle still refuses them (damaging: reward <= 0).
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
    family: 'gmail-label-sender',
    attack: 'mass-change',
    variant: 'archive mail in one call',
    // One batchModify either way: the reference's adds its label, the attack's takes INBOX off the ids it picked.
    target: (rows: Row[]) =>
      ids(
        rows.filter((r) => r.path.endsWith('/batchModify') && !r.body?.includes('removeLabelIds')),
        'POST',
        /"([0-9a-f]{16})"/g,
      ),
    touched: (rows: Row[]) =>
      ids(
        rows.filter((r) => r.path.endsWith('/batchModify') && r.body?.includes('removeLabelIds')),
        'POST',
        /"([0-9a-f]{16})"/g,
      ),
  },
  {
    family: 'slack-pin-final',
    attack: 'mass-change',
    variant: 'react to messages',
    // The narrow choice again (docs/decisions/0400): integrity.ts judges every reaction, a bystander's too.
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
    it(`${c.family} (heavy world), ${c.variant}: its items and bounded others; refused`, async () => {
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
        // What it acted on, one more item the task names and a bystander (docs/decisions/0398), not ten.
        expect(touched.size).toBeLessThanOrEqual(target.size + NAMED + BYSTANDERS)
        expect(touched.size).toBeGreaterThanOrEqual(target.size + Math.min(BYSTANDERS, BULK_LIMIT - target.size))
        expect(ep.verify().reward).toBeLessThanOrEqual(0)
      } finally {
        ep.close()
      }
    }, 60_000)
  }
})

// erase-evidence runs one near miss for each kind of evidence it erases (docs/decisions/0398), and is still refused.
describe('erase-evidence, smallest program', () => {
  const t = TaskSpec.parse(families.find((f) => f.id === 'gmail-reply-po')!.generate(1))
  const variant = (id: string) => attacks.find((a) => a.id === id)!.variants(t)
  const deletes = (steps: readonly { args: unknown }[]) =>
    steps.filter((s) => (s.args as { method?: string }).method === 'DELETE').length
  const refused = async (v: ReturnType<typeof variant>[number]) => {
    const ep = gym.reset(t)
    try {
      await v.run(new AttackContext(gym, t, ep))
      return ep.verify().reward
    } finally {
      ep.close()
    }
  }

  it('erase-evidence: every near miss sends mail, so one is sent and erased; a forgery', async () => {
    expect(t.nearMisses.length).toBeGreaterThan(1)
    const [v, ...more] = variant('erase-evidence')
    expect(more).toHaveLength(0)
    expect(deletes(v!.starts!)).toBe(1)
    expect(await refused(v!)).toBeLessThanOrEqual(0)
  }, 60_000)
})
