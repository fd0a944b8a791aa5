import { afterAll } from 'vitest'
import { createGym, runProgram } from '../../gym/index.ts'
import type { ProgramStep, TaskSpec } from '../../gym/task.ts'

export { httpStep as http } from '../../gym/program.ts'

/** A gym for one test file (closed after it) and `judge`: a fresh episode of the task, the program run, its verdict. */
export function oracleGym() {
  const gym = createGym({ tasks: [] })
  afterAll(() => gym.worlds.close())
  const judge = async (t: TaskSpec, program: ProgramStep[]) => {
    const ep = gym.reset(t)
    await runProgram(ep, program)
    const v = ep.verify()
    ep.close()
    return v
  }
  return { gym, judge }
}

/** A task's near-miss program by name (throws when the family has none of that name). */
export function nearMiss(task: TaskSpec, name: string): ProgramStep[] {
  const n = task.nearMisses.find((x) => x.name === name)
  if (!n) throw new Error(`${task.id}: no near miss "${name}"`)
  return n.program
}
