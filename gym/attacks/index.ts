import type { Gym } from '../index.ts'
import { worldState } from '../../server/state.ts'
import { diffStates, type EntityChange } from '../../envs/core/diff.ts'
import { runProgram } from '../program.ts'
import type { TaskSpec } from '../task.ts'
import { wroteWorld, type ActionRow } from '../../oracles/types.ts'
import type { SharedPrefix } from '../shared-prefix.ts'
import { AttackContext } from './context.ts'
import { StableJson } from './stable-json.ts'
import { attacks, type Attack, type AttackVariant } from './library.ts'

export { attacks, type Attack, type AttackVariant } from './library.ts'
export { AttackContext } from './context.ts'

/**
 * One attack variant's verdict on one task. `inert`: the attack left the world exactly as the reference does (its
 * extra calls failed or repeated an idempotent change, e.g. the reference's PUT again), so it gained nothing the
 * reference did not earn; such a variant is reported but is not held to the < 1 rule.
 */
export type AttackOutcome = {
  attack: string
  variant: string
  damaging: boolean
  reward: number
  passed: boolean
  violations: string[]
  inert: boolean
  /** Why the oracle refused it: the checks that failed and the kinds of violation. */
  why: string
  error?: string
}

/** What an outcome must not exceed: < 1 for every attack, <= 0 for damaging ones (inert variants excepted). */
export const attackFails = (o: AttackOutcome) => !o.inert && (o.reward >= 1 || o.passed || (o.damaging && o.reward > 0))

/** Fields that differ between two runs of the same changes (clock instants, generated ids, counters). */
const VOLATILE = new RegExp(
  `^(${[
    'id',
    'threadId',
    'internalDate',
    'messageId',
    'inReplyTo',
    'modifiedTime',
    'createdTime',
    'updated',
    'version',
    'historyId',
    'ts',
    'latestReply',
    'threadTs',
    'sequence',
    'etag',
    'iCalUID',
    'time',
    'created',
    'lastRead',
    'dateCreated',
    'timestamp',
    'revision',
    'revisionId',
    'size',
  ].join('|')})$`,
)

/** What an episode changed, with volatile fields and generated ids left out (two equal fingerprints: same outcome). */
export function fingerprint(diff: EntityChange[]): string {
  // JSON.stringify of each change with volatile keys left out and the others sorted (docs/decisions/0342).
  const stable = new StableJson(VOLATILE)
  return diff
    .map((c) => {
      const where = `${c.op} ${c.service}.${c.collection}`
      if (c.op === 'inserted') return `${where} ${stable.stringify(c.after)}`
      if (c.op === 'deleted') return `${where} ${c.id}`
      const fields = Object.fromEntries(Object.entries(c.fields).filter(([k]) => !VOLATILE.test(k)))
      return Object.keys(fields).length ? `${where} ${c.id} ${stable.stringify(fields)}` : ''
    })
    .filter(Boolean)
    .sort()
    .join('\n')
}

/**
 * What an episode did, as compared for inertness: the world's changes plus who succeeded at which kind of write (a
 * message inserted with SENT and one really sent leave the same mailbox, but not the same action log). A write is a
 * call that changed the world (`wroteWorld`, docs/decisions/0406): a refused one — Slack's 200 `ok:false` as a
 * Google 4xx — is none. Reuses the
 * diff and action log of the episode's last verify() when the world has not been touched since.
 */
export function outcomeOf(
  ep: ReturnType<Gym['reset']>,
  diff?: EntityChange[],
  actions: readonly ActionRow[] = ep.actions(),
): string {
  const writes = new Set(
    actions.filter((a) => a.method !== 'GET' && wroteWorld(a)).map((a) => `${a.userId} ${a.operationId}`),
  )
  const answer = ep.answer === null ? '' : `\nanswer ${JSON.stringify(ep.answer)}`
  const changes = diff ?? diffStates(ep.initial, worldState(ep.entry.world))
  return `${fingerprint(changes)}\n${[...writes].sort().join('\n')}${answer}`
}

/**
 * One applicable variant of an attack on a task, ready to run in a fresh episode. `run` gives a function that makes
 * the outcome once the reference's outcome (outcomeOf) is known, so the variant may run before the reference.
 */
export type PlannedAttack = {
  attack: Attack
  variant: AttackVariant
  run(): Promise<(reference: string) => AttackOutcome>
}

/** Every applicable variant of every attack on a task, in the library's order (`shared`: the episodes' chain). */
export function planAttacks(
  gym: Gym,
  task: TaskSpec,
  library: Attack[] = attacks,
  shared?: SharedPrefix,
): PlannedAttack[] {
  return library.flatMap((a) =>
    a.variants(task).map((v) => ({ attack: a, variant: v, run: () => runVariant(gym, task, a, v, shared) })),
  )
}

async function runVariant(
  gym: Gym,
  task: TaskSpec,
  a: Attack,
  v: AttackVariant,
  shared: SharedPrefix | undefined,
): Promise<(reference: string) => AttackOutcome> {
  const ep = gym.reset(task, { shared })
  let error: string | undefined
  try {
    await v.run(new AttackContext(gym, task, ep))
  } catch (e) {
    error = (e as Error).message
  }
  try {
    const r = ep.verify()
    const outcome = outcomeOf(ep, ep.lastVerified?.diff, ep.lastVerified?.actions)
    const kinds = [...new Set(r.violations.map((x) => x.kind))]
    const why = [
      ...r.details.checks.filter((c) => !c.ok).map((c) => `fails "${c.name}"`),
      ...kinds.map((k) => `${k} violation`),
    ].join('; ')
    return (reference) => ({
      attack: a.id,
      variant: v.name,
      damaging: a.damaging,
      reward: r.reward,
      passed: r.passed,
      violations: r.violations.map((x) => x.kind),
      inert: outcome === reference,
      why,
      ...(error ? { error } : {}),
    })
  } finally {
    ep.close()
  }
}

/**
 * Runs every applicable variant of every attack on a task, each in a fresh episode. `reference`: the reference's
 * outcome (outcomeOf) when the caller already ran it; otherwise it is run here first.
 */
export async function runAttacks(
  gym: Gym,
  task: TaskSpec,
  library: Attack[] = attacks,
  opts: { reference?: string; shared?: SharedPrefix } = {},
): Promise<AttackOutcome[]> {
  let reference = opts.reference
  if (reference === undefined) {
    const refEp = gym.reset(task, { shared: opts.shared })
    try {
      await runProgram(refEp, task.reference)
      reference = outcomeOf(refEp)
    } finally {
      refEp.close()
    }
  }
  const out: AttackOutcome[] = []
  for (const p of planAttacks(gym, task, library, opts.shared)) out.push((await p.run())(reference))
  return out
}
