import type { Episode } from './episode.ts'
import { MAX_ANSWER_CHARS, type ProgramStep } from './task.ts'
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

export type StepObserver = {
  before?(step: ProgramStep, index: number): void
  after?(step: ProgramStep, index: number, r: { status: number; body: unknown; text: string }): void
}

/** A program's closing `done` step: `answer` may use bindings (`{{start}}`), like any argument. */
export const doneStep = (answer?: string): ProgramStep => ({
  tool: 'done',
  args: answer === undefined ? {} : { answer },
})

/**
 * Runs a solution program through an episode's calls; returns the statuses and the bindings. A `done` step ends the
 * program and submits its `answer` (answer tasks), as the agent's own `done` does.
 */
export async function runProgram(
  ep: Pick<Episode, 'call' | 'steps'> & { answer?: string | null },
  program: readonly ProgramStep[],
  observer: StepObserver = {},
): Promise<{ vars: Vars; statuses: number[] }> {
  const vars: Vars = {}
  const statuses: number[] = []
  for (const [i, step] of program.entries()) {
    observer.before?.(step, i)
    const args = (await expandMacros(fill(step.args, vars))) as Record<string, unknown>
    if (step.tool === 'done') {
      ep.steps++
      if (typeof args.answer === 'string' && 'answer' in ep) ep.answer = args.answer.slice(0, MAX_ANSWER_CHARS)
      break
    }
    const r = await ep.call({ tool: step.tool, arguments: args })
    ep.steps++
    statuses.push(r.status)
    observer.after?.(step, i, r)
    for (const [name, path] of Object.entries(step.save ?? {}))
      if (path) vars[name] = path === '$text' ? r.text : pick(r.body, path)
  }
  return { vars, statuses }
}
