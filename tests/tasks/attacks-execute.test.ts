import { describe, expect, it } from 'vitest'
import { createGym } from '../../gym/index.ts'
import { TaskSpec } from '../../gym/task.ts'
import { attacks, runAttacks } from '../../gym/attacks/index.ts'
import { families } from '../../tasks-lite/families/index.ts'

// An attack that leaves the world exactly as the reference does (`inert`) proves nothing about the oracle. The
// near-duplicate attack runs the reference and then a near miss in one episode: the near miss must really act (it
// reuses what the reference already set up, e.g. the label it created, instead of failing on a 409 re-create).
const gym = createGym({ tasks: [] })
const nearDuplicate = attacks.filter((a) => a.id === 'near-duplicate-too')

describe('near-duplicate-too really executes', () => {
  it('gmail-label-sender: the over-labelling variants change the world beyond the reference and score < 1', async () => {
    for (const seed of [1, 2]) {
      const t = TaskSpec.parse(families.find((f) => f.id === 'gmail-label-sender')!.generate(seed))
      const out = await runAttacks(gym, t, nearDuplicate)
      expect(out.length).toBe(t.nearMisses.length)
      for (const o of out) {
        expect(o.error, `${t.id} ${o.variant}`).toBeUndefined()
        // Labelling a subset of what the reference labelled changes nothing (the reference's world, its reward);
        // the over-reaching near misses must act, and score < 1.
        expect(o.inert, `${t.id} ${o.variant}`).toBe(o.variant === 'only one contact')
        if (!o.inert) expect(o.reward, `${t.id} ${o.variant}`).toBeLessThan(1)
      }
    }
  }, 60_000)
})
