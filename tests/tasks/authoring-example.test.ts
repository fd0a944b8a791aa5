import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGym } from '../../gym/index.ts'
import { validateTask } from '../../gym/validate.ts'
import { oracles } from '../../oracles/index.ts'
import { instance } from '../../tasks-lite/corpus.ts'
import { families } from '../../tasks-lite/families/index.ts'
import { slackRelayCode } from '../../tasks-lite/families/examples/slack-relay-code.ts'
import { exampleOracles } from '../../tasks-lite/families/examples/relay-code.oracle.ts'

// The worked family of docs/authoring-tasks.md must really validate (reference 1 after looking first, no-op and near
// misses failing, every attack < 1), or the guide has rotted. It is not in the corpus, so its oracle is registered
// here for the test only.
describe('docs/authoring-tasks.md worked example (example-slack-relay-code)', () => {
  beforeAll(() => {
    Object.assign(oracles, exampleOracles)
  })
  afterAll(() => {
    for (const id of Object.keys(exampleOracles)) delete oracles[id]
  })

  it('stays out of the corpus', () => {
    expect(families.map((f) => f.id)).not.toContain(slackRelayCode.id)
  })

  it('validates two seeds with attacks, like npm run tasks:validate does', async () => {
    const gym = createGym({ tasks: [] })
    try {
      for (const seed of [1, 2]) {
        const t = instance(slackRelayCode, seed)
        const r = await validateTask(gym, t)
        expect(r.problems, t.id).toEqual([])
        expect(r.reference.reward).toBe(1)
        expect(r.nearMisses.map((n) => n.result.passed)).toEqual([false, false, false])
        // The attack library found the hidden candidates (params.wrong) and the post to rewrite.
        const ids = new Set(r.attacks.map((a) => a.attack))
        for (const id of ['right-plus-wrong', 'hidden-wrong', 'spam-everyone']) expect(ids, t.id).toContain(id)
      }
    } finally {
      gym.worlds.close()
    }
  }, 120_000)

  it('phrases instances differently and never puts the code in the instruction', () => {
    const ts = [1, 2, 3, 4, 5, 6].map((s) => instance(slackRelayCode, s))
    expect(new Set(ts.map((t) => t.instruction)).size).toBe(ts.length)
    for (const t of ts) expect(t.instruction).not.toContain(String((t.oracle.params as { answer: string }).answer))
  })
})
