import type { Episode } from './episode.ts'
import { MAX_ANSWER_CHARS, type ProgramStep, type TaskSpec } from './task.ts'
import { expandMacros, fill, pick, type Vars } from './program-grammar.ts'
import { toTypedCall, typedTools, type HttpCall } from './tools.ts'

/**
 * Runs a solution program written for the `rest` profile through the typed tools of an episode on the `typed`
 * profile: each `http_request` becomes the typed call a model would make. Proves the typed tool list can solve
 * the task (and that typed calls reach the API with their arguments).
 */
export async function runProgramTyped(
  ep: Episode,
  program: readonly ProgramStep[],
): Promise<{ vars: Vars; statuses: number[]; calls: string[] }> {
  if (ep.task.toolProfile !== 'typed') throw new Error('runProgramTyped needs an episode on the typed profile')
  const tools = typedTools(ep.task.services, { admin: ep.task.tags.includes('admin') })
  const vars: Vars = {}
  const statuses: number[] = []
  const calls: string[] = []
  for (const step of program) {
    const args = (await expandMacros(fill(step.args, vars))) as Record<string, unknown>
    if (step.tool === 'done') {
      ep.steps++
      if (typeof args.answer === 'string') ep.answer = args.answer.slice(0, MAX_ANSWER_CHARS)
      break
    }
    let action = { tool: step.tool, arguments: args }
    if (step.tool === 'http_request') {
      const typed = toTypedCall(tools, args as HttpCall)
      if (!typed) throw new Error(`no typed tool serves ${String(args.method)} ${String(args.path)}`)
      action = typed
    }
    calls.push(action.tool)
    const r = await ep.call(action)
    ep.steps++
    statuses.push(r.status)
    for (const [name, path] of Object.entries(step.save ?? {}))
      if (path) vars[name] = path === '$text' ? r.text : pick(r.body, path)
  }
  return { vars, statuses, calls }
}

/** A task on the typed profile. */
export const onTypedProfile = (task: TaskSpec): TaskSpec => ({ ...task, toolProfile: 'typed' })
