/**
 * Reference trajectories: the gym never hands out reference programs over HTTP (`GET /gym/tasks` is the public
 * view), so they are read from the task corpus files on disk (`tasks-lite/corpus/<family>/*.json`), which the
 * trainer's machine has, and every call is run through `POST /gym/episodes/:id/step` so observations are real.
 * The program grammar (`{{name}}` bindings, `save` paths, the `$rfc822` macro) is gym/program-grammar.ts, the one
 * gym module the trainer imports (it depends on nothing of the gym).
 */
import { taskSplit } from './split.ts'
import { readdirSync, readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { bodyText, expandMacros, fill, pick } from '../gym/program-grammar.ts'
import { HttpError, type GymClient } from './http.ts'
import { orderedPool, recordVerdict } from './rollout.ts'
import type { ChatMessage, RolloutRecord } from './types.ts'
import { DEFAULT_SYSTEM_PROMPT } from './rollout.ts'

export { expandMacros, fill, pick }

export type ProgramStep = { tool: string; args: Record<string, unknown>; save?: Record<string, string | undefined> }
/** The parts of a corpus task file the trainer reads (the whole file travels as-is for inline resets). */
export type CorpusTask = {
  id: string
  family: string
  toolProfile?: 'rest' | 'typed'
  reference: ProgramStep[]
  [k: string]: unknown
}

/** Reads every task JSON file of a corpus folder (`<dir>/<family>/*.json`), sorted by family then file name. */
export function loadCorpusFiles(dir: string): CorpusTask[] {
  if (!existsSync(dir)) throw new Error(`no task corpus at ${dir}`)
  const out: CorpusTask[] = []
  for (const fam of readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()) {
    // Plain sort, like gym/corpus.ts, so the order matches `GET /gym/tasks`.
    for (const f of readdirSync(join(dir, fam))
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      const t = JSON.parse(readFileSync(join(dir, fam, f), 'utf8')) as CorpusTask
      if (typeof t.id !== 'string' || typeof t.family !== 'string' || !Array.isArray(t.reference))
        throw new Error(`${join(fam, f)}: not a task file (id, family, reference)`)
      out.push(t)
    }
  }
  return out
}

/** An observation (`{"status":…,"body":…}`, maybe cut short) → the body, or undefined when it was truncated. */
function observationBody(observation: string): { ok: true; body: unknown; text: string } | { ok: false } {
  try {
    const o = JSON.parse(observation) as { body?: unknown }
    const body = o.body
    return { ok: true, body, text: bodyText(body) }
  } catch {
    return { ok: false }
  }
}

export type ReferenceOptions = {
  gym: GymClient
  tasks: CorpusTask[]
  systemPrompt?: string
  concurrency?: number
  /** Appends a `done` call after the program (default true): rollouts end that way, so SFT data should too. */
  finishWithDone?: boolean
  /** Label for the `model` field of the records. */
  model?: string
  onRecord?: (r: RolloutRecord) => void | Promise<void>
}

/** Runs one task's reference program through the gym as an assistant's tool calls and records the trajectory. */
export async function referenceTrajectory(
  task: CorpusTask,
  index: number,
  opts: ReferenceOptions,
): Promise<RolloutRecord> {
  const { gym } = opts
  const t0 = performance.now()
  const ms = (since: number) => Math.round(performance.now() - since)
  const timings = { totalMs: 0, resetMs: 0, modelMs: 0, stepMs: 0, verifyMs: 0 }
  const rec: RolloutRecord = {
    index,
    source: 'reference',
    taskId: task.id,
    family: task.family,
    split: taskSplit(task),
    sample: 0,
    seed: null,
    modelSeed: null,
    model: opts.model ?? 'reference',
    toolProfile: task.toolProfile ?? 'rest',
    episodeId: null,
    messages: [],
    tools: [],
    verdict: null,
    steps: 0,
    turns: 0,
    invalidToolCalls: 0,
    stopReason: 'max_turns',
    error: null,
    timings,
    usage: null,
  }
  let t = performance.now()
  try {
    // By id when the server knows the task; inline (the file as-is) when it does not.
    const ep = await gym.reset({ taskId: task.id }).catch((e) => {
      if (e instanceof HttpError && e.status === 404) return gym.reset({ task })
      throw e
    })
    timings.resetMs = ms(t)
    rec.episodeId = ep.episodeId
    rec.tools = ep.tools
    rec.toolProfile = ep.task.toolProfile
    const messages: ChatMessage[] = (rec.messages = [
      { role: 'system', content: opts.systemPrompt ?? DEFAULT_SYSTEM_PROMPT },
      { role: 'user', content: ep.observation },
    ])
    try {
      const vars: Record<string, unknown> = {}
      // A reference that ends with its own `done` (answer tasks submit their answer there) gets no second one.
      const closes = task.reference.at(-1)?.tool === 'done'
      const program: ProgramStep[] = [
        ...task.reference,
        ...(opts.finishWithDone === false || closes ? [] : [{ tool: 'done', args: {} }]),
      ]
      let stop: RolloutRecord['stopReason'] | undefined
      for (const [i, step] of program.entries()) {
        const args = (await expandMacros(fill(step.args, vars))) as Record<string, unknown>
        const id = `call_${i}`
        messages.push({
          role: 'assistant',
          content: null,
          tool_calls: [{ id, type: 'function', function: { name: step.tool, arguments: JSON.stringify(args) } }],
        })
        rec.turns++
        t = performance.now()
        const r = await gym.step(ep.episodeId, step.tool, args)
        timings.stepMs += ms(t)
        messages.push({ role: 'tool', tool_call_id: id, content: r.observation })
        const saves = Object.entries(step.save ?? {}).filter(([, p]) => p)
        if (saves.length) {
          const b = observationBody(r.observation)
          if (!b.ok)
            throw new Error(
              `step ${i}: the observation was truncated, so "${saves.map(([n]) => n).join(', ')}" cannot be bound (raise the task's maxObservationChars)`,
            )
          for (const [name, path] of saves) vars[name] = path === '$text' ? b.text : pick(b.body, path!)
        }
        if (r.terminated) {
          stop = 'terminated'
          break
        }
        if (r.truncated) {
          stop = 'truncated'
          break
        }
      }
      rec.stopReason = stop ?? 'no_tool_call'
      await recordVerdict(gym, ep.episodeId, rec)
    } finally {
      await gym.close(ep.episodeId).catch(() => undefined)
    }
  } catch (e) {
    rec.stopReason = 'gym_error'
    rec.error = (e as Error).message
  }
  timings.totalMs = ms(t0)
  return rec
}

/** Reference trajectories for many tasks, in the given order. */
export async function collectReferences(opts: ReferenceOptions): Promise<RolloutRecord[]> {
  return orderedPool(
    opts.tasks.length,
    opts.concurrency ?? 4,
    (i) => referenceTrajectory(opts.tasks[i]!, i, opts),
    (r) => opts.onRecord?.(r),
  )
}
