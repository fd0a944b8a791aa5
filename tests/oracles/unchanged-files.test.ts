import { afterAll, describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { createGym, runProgram, type Episode } from '../../gym/index.ts'
import type { ProgramStep } from '../../gym/task.ts'
import { customerEscalation } from '../../tasks-lite/families/customer-escalation.ts'
import { http } from './support.ts'

// The secret rules skip the files and events of the start that nobody new can read (docs/decisions/0422), and keep
// who can open a file of the start per Drive state for all of a task's episodes. One gym that reuses its worlds'
// connections, as validation does (a held world's unwritten rows give the very entities of the start), and one task:
// the episodes share the very start state, so an answer kept from an earlier episode would show here.
const gym = createGym({ tasks: [], reuseWorlds: true })
afterAll(() => gym.worlds.close())
const t = TaskSpec.parse(customerEscalation.generate(1))
const floor = (t.oracle.params as { secrets: string[] }).secrets[0]!
const am = (t.oracle.params as { amEmail: string }).amEmail
const steps = t.reference.filter((s) => s.tool !== 'done')
type Files = Record<string, { id: string; name: string; body?: string; trashed?: boolean }>

const run = async (program: ProgramStep[]) => {
  const ep: Episode = gym.reset(t)
  try {
    await runProgram(ep, program)
    const verdict = ep.verify()
    return { ep, verdict, final: ep.lastVerified!.final }
  } finally {
    ep.close()
  }
}
const leaks = (v: { violations: { kind: string; message: string }[] }) =>
  v.violations.filter((x) => x.kind === 'leak' && x.message.includes('is in file'))

describe('a file of the start shown to someone new', () => {
  it('is judged though its entity is the very one of the start, between episodes that share nothing', async () => {
    const first = await run(steps)
    expect(first.verdict.reward).toBe(1)
    const files = first.ep.initial.services.drive!.entities.files as Files
    // The agreement that states the floor, alone in the owner's drive (no folder shares it).
    const msa = Object.values(files).find((f) => !f.trashed && String(f.body ?? '').includes(floor))!
    expect(msa).toBeDefined()
    const share = http('POST', `/drive/v3/files/${msa.id}/permissions`, {
      query: { sendNotificationEmail: 'false' },
      body: { type: 'user', role: 'reader', emailAddress: am },
    })
    for (let round = 0; round < 2; round++) {
      const shared = await run([...steps, share])
      // The file's own entity is unchanged (a permission row is its own collection): only who opens it differs.
      expect((shared.final.services.drive!.entities.files as Files)[msa.id]).toBe(files[msa.id])
      expect(leaks(shared.verdict).map((v) => v.message)).toEqual([
        `"${floor}" is in file "${msa.name}", open to ${am.toLowerCase()}`,
      ])
      expect(shared.verdict.reward).toBe(-1)
      // The next episode of the task starts from the same state and shares nothing: no leak is carried over.
      const plain = await run(steps)
      expect(leaks(plain.verdict)).toEqual([])
      expect(plain.verdict.reward).toBe(1)
    }
  })
})
