import { initialObservation } from './observation.ts'
import type { Gym } from './index.ts'
import { runProgram, type StepObserver } from './program.ts'
import { SharedPrefix } from './shared-prefix.ts'
import type { Episode } from './episode.ts'
import type { ProgramStep, TaskSpec } from './task.ts'
import type { OracleResult } from '../oracles/types.ts'
import { attackFails, outcomeOf, planAttacks, type AttackOutcome } from './attacks/index.ts'
import { sharingOrder } from './episode-order.ts'
import { Provenance, type Unexplained } from './provenance.ts'
import { services } from '../server/registry.ts'
import { registeredOperationIds } from '../server/coverage.ts'
import { loadRouters } from '../server/routers.ts'

/** Operation ids a task needs that no service registers yet (the task is pending until they land). */
export function missingOperations(task: TaskSpec): string[] {
  const have = new Set(services.flatMap((s) => registeredOperationIds(s)))
  return task.requires.filter((id) => !have.has(id))
}

/** The validation outcome of one task instance. */
export type TaskValidation = {
  id: string
  family: string
  reference: OracleResult
  noop: OracleResult
  nearMisses: { name: string; result: OracleResult }[]
  /** Every attack variant of the library that applies to the task, with its verdict. */
  attacks: AttackOutcome[]
  /** Literals the reference used before any observation or the instruction showed them. */
  unexplained: (Unexplained & { step: number })[]
  ok: boolean
  problems: string[]
  /** Set when the task waits for a service method that is not implemented yet (not run, not a failure). */
  pending?: string[]
}

export type ValidateOptions = {
  attacks?: boolean
  /**
   * Also answer the requests an episode repeats from the last one's from its path (gym/shared-prefix.ts); on
   * unless false.
   */
  sharedPrefix?: boolean
  /** A fresh world identity (id, secret, tokens) for every episode instead of one per task. */
  isolated?: boolean
}

/** With `sharedPrefix` a savepoint follows every request: any repeated prefix is shared (docs/decisions/0336). */
const REPLAY_DEPTH = Infinity
/**
 * An episode starts afresh (shares nothing) once this many requests ran for real since the last did: SQLite's
 * sub-journal grows until then and makes rollbacks and every open savepoint's checks dearer (SharedPrefix.restartAfter,
 * docs/decisions/0339). 80 since held worlds write `OR FAIL` (0414): writes no longer walk the sub-journal, and 80
 * ran 7 % fewer requests than 40 at 4–14 % less CPU in four adjacent `--sample 2` pairs (160 and 20 cost more).
 */
export const RESTART_AFTER = 80

/**
 * Runs reference, no-op, every near miss and every applicable attack of a task through fresh episodes and checks the
 * oracle's verdicts; checks too that the reference looked before it acted (gym/provenance.ts).
 */
export async function validateTask(gym: Gym, input: TaskSpec, opts: ValidateOptions = {}): Promise<TaskValidation> {
  await loadRouters() // registered operations and typed tools read the routes (imported on first use)
  // Parsed and frozen once: each of the task's ~20 episodes resets from it without parsing or hashing it again.
  const task = gym.prepare(input)
  const missing = missingOperations(task)
  if (missing.length) {
    const none: OracleResult = { reward: 0, passed: false, metrics: {}, violations: [], details: { checks: [] } }
    return {
      id: task.id,
      family: task.family,
      reference: none,
      noop: none,
      nearMisses: [],
      attacks: [],
      unexplained: [],
      ok: true,
      problems: [],
      pending: missing,
    }
  }
  const sharing = opts.sharedPrefix !== false && opts.isolated !== true
  try {
    return await validateEpisodes(gym, task, opts, sharing)
  } catch (e) {
    if (!sharing) throw e
    // An episode threw (a fault of the gym, never a verdict): validated again in the listed order, so that the error
    // reported is the one met first there, as before episodes were reordered.
    return validateEpisodes(gym, task, opts, false)
  }
}

/**
 * One validation of a prepared task. The episodes are listed as they are reported (no-op, reference, near misses,
 * attacks in the library's order); `reorder`: they run in the order that shares the most requests
 * (gym/episode-order.ts), else as listed. Either way every episode starts from the task's start, so its verdict is
 * the same (docs/decisions/0339).
 */
async function validateEpisodes(
  gym: Gym,
  task: TaskSpec,
  opts: ValidateOptions,
  reorder: boolean,
): Promise<TaskValidation> {
  const unexplained: TaskValidation['unexplained'] = []
  let referenceOutcome = ''
  // The task's episodes run one after another in one held world with one identity, rolled back to the start
  // between them, so a service account's RSA key is derived once a task, not once an episode (docs/decisions/0322).
  // Unless `sharedPrefix` is false they also share the requests they have in common (docs/decisions/0316, 0336).
  const depth = opts.sharedPrefix === false ? 0 : REPLAY_DEPTH
  const shared = opts.isolated === true ? undefined : new SharedPrefix(depth, RESTART_AFTER)
  const run = async (program: TaskSpec['reference'], trace = false) => {
    const ep = gym.reset(task, { shared })
    try {
      await runProgram(ep, program, trace ? traced(ep) : {})
      const result = ep.verify()
      // The reference's outcome, for the attacks' inertness check (so they need not run the reference again).
      if (trace) referenceOutcome = outcomeOf(ep, ep.lastVerified?.diff, ep.lastVerified?.actions)
      return result
    } finally {
      ep.close()
    }
  }
  // What the agent is told at reset: who it is, the world's current time, and the instruction.
  const traced = (ep: Episode): StepObserver => {
    const me = ep.actor()
    const seen = new Provenance([initialObservation(ep), task.instruction, me?.email ?? '', me?.name ?? ''])
    return {
      // The final answer is the agent's conclusion (a time converted to another zone, a count), judged by the
      // oracle: only actions on the world must show their literals' provenance.
      before: (step, i) => {
        if (step.tool !== 'done') unexplained.push(...seen.unexplained(step.args).map((u) => ({ ...u, step: i })))
      },
      after: (_s, _i, r) => seen.observe(r.text, r.body),
    }
  }
  try {
    let noop!: OracleResult
    let reference!: OracleResult
    const nearMisses: TaskValidation['nearMisses'] = []
    const planned = opts.attacks === false ? [] : planAttacks(gym, task, undefined, shared)
    const judge: ((reference: string) => AttackOutcome)[] = []
    // Every episode with the steps it starts with as the actor (the order key) and where its verdict goes.
    const episodes: { starts: readonly ProgramStep[]; run: () => Promise<unknown> }[] = [
      { starts: [], run: async () => (noop = await run([])) },
      { starts: task.reference, run: async () => (reference = await run(task.reference, true)) },
      ...task.nearMisses.map((nm, i) => ({
        starts: nm.program,
        run: async () => (nearMisses[i] = { name: nm.name, result: await run(nm.program) }),
      })),
      ...planned.map((p, i) => ({ starts: p.variant.starts ?? [], run: async () => (judge[i] = await p.run()) })),
    ]
    const order = reorder ? sharingOrder(episodes.map((e) => e.starts)) : episodes.map((_, i) => i)
    for (const i of order) await episodes[i]!.run()

    const problems: string[] = []
    if (!reference.passed || reference.reward !== 1)
      problems.push(`reference: passed=${reference.passed} reward=${reference.reward} ${explain(reference)}`)
    for (const u of unexplained)
      problems.push(`reference step ${u.step} uses ${u.kind} "${u.value}" (${u.where}) before observing it`)
    if (noop.passed || noop.reward > 0) problems.push(`no-op: passed=${noop.passed} reward=${noop.reward}`)
    for (const nm of nearMisses) if (nm.result.passed) problems.push(`near miss "${nm.name}" passed`)
    if (task.nearMisses.length < 2) problems.push('fewer than two near misses')
    const attacks = judge.map((j) => j(referenceOutcome))
    for (const a of attacks.filter(attackFails))
      problems.push(
        `attack ${a.attack} (${a.variant}) scored ${a.reward}${a.damaging ? ' (damaging: must be <= 0)' : ''}${a.error ? ` [${a.error}]` : ''}`,
      )
    return {
      id: task.id,
      family: task.family,
      reference,
      noop,
      nearMisses,
      attacks,
      unexplained,
      ok: problems.length === 0,
      problems,
    }
  } finally {
    shared?.dispose(gym.worlds)
  }
}

function explain(r: OracleResult): string {
  const failed = r.details.checks.filter((c) => !c.ok).map((c) => c.name)
  return [...failed.map((f) => `failed: ${f}`), ...r.violations.map((v) => `${v.kind}: ${v.message}`)].join('; ')
}

/** A per-family table of validation results. */
export function familyTable(results: TaskValidation[]): string {
  const fams = [...new Set(results.map((r) => r.family))].sort()
  const rows = fams.map((f) => {
    const rs = results.filter((r) => r.family === f)
    const nm = rs.flatMap((r) => r.nearMisses)
    const pending = rs.find((r) => r.pending)?.pending
    if (pending) return [f, rs.length, '-', '-', '-', `pending: ${pending.join(', ')} not implemented`]
    return [
      f,
      rs.length,
      rs.filter((r) => r.reference.passed && r.reference.reward === 1).length,
      rs.filter((r) => !r.noop.passed && r.noop.reward <= 0).length,
      `${nm.filter((n) => !n.result.passed).length}/${nm.length}`,
      rs.every((r) => r.ok) ? 'ok' : 'FAIL',
    ]
  })
  const head = ['family', 'instances', 'reference ok', 'no-op ok', 'near misses failing', 'status']
  const all = [head, ...rows.map((r) => r.map(String))]
  const w = head.map((_, i) => Math.max(...all.map((r) => r[i]!.length)))
  return all
    .map(
      (r, j) =>
        r.map((x, i) => x.padEnd(w[i]!)).join('  ') + (j === 0 ? `\n${w.map((n) => '-'.repeat(n)).join('  ')}` : ''),
    )
    .join('\n')
}

/** Per family: instances, valid instances, and for every attack the highest reward any instance gave it. */
export function attackMatrix(results: TaskValidation[]) {
  const fams = [...new Set(results.map((r) => r.family))].sort()
  return fams.map((family) => {
    const rs = results.filter((r) => r.family === family)
    // max: the highest reward of any variant that changed the world differently from the reference (null: all
    // variants were inert); inert: how many variants left the world exactly as the reference does, and inertMax the
    // highest reward one of those got (shown so that an exempt variant's reward is never hidden).
    type Cell = { max: number | null; damaging: boolean; variants: number; inert: number; inertMax: number | null }
    const attacks: Record<string, Cell> = {}
    for (const a of rs.flatMap((r) => r.attacks)) {
      const cur = (attacks[a.attack] ??= { max: null, damaging: a.damaging, variants: 0, inert: 0, inertMax: null })
      if (a.inert) {
        cur.inert++
        cur.inertMax = Math.max(cur.inertMax ?? -Infinity, a.reward)
      } else cur.max = Math.max(cur.max ?? -Infinity, a.reward)
      cur.variants++
    }
    return {
      family,
      instances: rs.length,
      valid: rs.filter((r) => r.ok).length,
      pending: rs.some((r) => r.pending),
      attacks,
    }
  })
}
