import type { Episode } from './episode.ts'
import type { ProgramStep } from './task.ts'
import { expandMacros, fill, pick, type Vars } from './program-grammar.ts'

export { pick } from './program-grammar.ts'

/** Sees each step before it runs (its args as written, bindings unfilled) and the response after. */
/** One `http_request` step of a program (optionally saving response paths into bindings). */
export const httpStep = (
  method: string,
  path: string,
  extra: Record<string, unknown> = {},
  save?: Record<string, string>,
): ProgramStep => ({ tool: 'http_request', args: { method, path, ...extra }, ...(save ? { save } : {}) })

export type StepObserver = { before?(step: ProgramStep, index: number): void; after?(step: ProgramStep, index: number, r: { status: number; body: unknown; text: string }): void }

/** Runs a solution program through an episode's step(); returns the last status and the bindings. */
export async function runProgram(ep: Pick<Episode, 'call' | 'steps'>, program: readonly ProgramStep[], observer: StepObserver = {}): Promise<{ vars: Vars; statuses: number[] }> {
  const vars: Vars = {}
  const statuses: number[] = []
  for (const [i, step] of program.entries()) {
    observer.before?.(step, i)
    const args = (await expandMacros(fill(step.args, vars))) as Record<string, unknown>
    const r = await ep.call({ tool: step.tool, arguments: args })
    ep.steps++
    statuses.push(r.status)
    observer.after?.(step, i, r)
    for (const [name, path] of Object.entries(step.save ?? {})) if (path) vars[name] = path === '$text' ? r.text : pick(r.body, path)
  }
  return { vars, statuses }
}
