import { afterAll, describe, expect, it } from 'vitest'
import { createGym, runProgram } from '../../gym/index.ts'
import { TaskSpec } from '../../gym/task.ts'
import { gmailReplyPo } from '../../tasks-lite/families/gmail-reply-po.ts'
import { loadSample } from '../../gym/corpus.ts'

const gym = createGym({ tasks: [], reuseWorlds: true })
afterAll(() => gym.worlds.close())

describe('Gym.prepare', () => {
  it('parses a task once into a deep-frozen spec that prepare hands back as it is', () => {
    const input = gmailReplyPo.generate(3)
    const spec = gym.prepare(input)
    expect(JSON.stringify(spec)).toBe(JSON.stringify(TaskSpec.parse(input)))
    expect(gym.prepare(spec)).toBe(spec)
    expect(Object.isFrozen(spec.reference[0]!.args)).toBe(true)
    expect(() => (spec.reference as unknown[]).push({})).toThrow(TypeError)
    expect(() => ((spec.seed as { now: string }).now = 'now')).toThrow(TypeError)
  })

  it('resets prepared tasks into the same worlds as unprepared ones, with and without background volume', async () => {
    // Seed 3 has no background volume (an inline seed keyed by its hash), seed 1 a light one.
    for (const input of [gmailReplyPo.generate(3), gmailReplyPo.generate(1), loadSample(1, ['slack-pin-final'])[0]!]) {
      const plain = TaskSpec.parse(input)
      const spec = gym.prepare(input)
      const a = gym.reset(plain)
      const b = gym.reset(spec)
      expect(JSON.stringify(b.initial)).toBe(JSON.stringify(a.initial))
      await runProgram(a, plain.reference)
      await runProgram(b, spec.reference)
      expect(a.verify().reward).toBe(1)
      expect(b.verify().reward).toBe(1)
      expect(JSON.stringify(b.lastVerified!.final)).toBe(JSON.stringify(a.lastVerified!.final))
      a.close()
      b.close()
    }
  })
})
