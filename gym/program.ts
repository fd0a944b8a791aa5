import type { Episode } from './episode.ts'
import type { ProgramStep } from './task.ts'
import { expandMacros, fill, pick, type Vars } from './program-grammar.ts'

export { pick } from './program-grammar.ts'

/** Runs a solution program through an episode's step(); returns the last status and the bindings. */
export async function runProgram(ep: Episode, program: readonly ProgramStep[]): Promise<{ vars: Vars; statuses: number[] }> {
  const vars: Vars = {}
  const statuses: number[] = []
  for (const step of program) {
    const args = (await expandMacros(fill(step.args, vars))) as Record<string, unknown>
    const r = await ep.call({ tool: step.tool, arguments: args })
    ep.steps++
    statuses.push(r.status)
    for (const [name, path] of Object.entries(step.save ?? {})) if (path) vars[name] = path === '$text' ? r.text : pick(r.body, path)
  }
  return { vars, statuses }
}
