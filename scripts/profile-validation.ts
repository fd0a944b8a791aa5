/**
 * Where validation spends its time, in one thread: for each sampled task, the episodes validation runs (reference,
 * no-op, near misses, every attack variant), with per episode kind the requests sent and the CPU spent in world
 * set-up (template + hold/rewind), requests, verify (dump + oracle) and close. A measurement tool, not a test.
 * Usage: node --import tsx scripts/profile-validation.ts [--sample N] [--family F]… [--json] [--no-share-prefix]
 *        [--isolated] [--listed-order] [--census]
 * `--census` also counts the actor's requests (docs/decisions/0386): run for real or answered from the shared path,
 * the fewest a perfect replay would run (the distinct prefixes of each task's request sequences), episodes that
 * repeat an earlier episode's whole sequence, and reads (GET) run for real: repeated within their episode with no
 * other request between, or run for real before in the task. Not with --isolated (no chain to count through).
 */
import { loadSample } from '../gym/corpus.ts'
import { createGym } from '../gym/index.ts'
import { runProgram } from '../gym/program.ts'
import { AttackContext, attacks, outcomeOf } from '../gym/attacks/index.ts'
import { isInProcessRequest } from '../server/in-process/index.ts'
import { SharedPrefix, type Sent } from '../gym/shared-prefix.ts'
import { sharingOrder } from '../gym/episode-order.ts'
import { RESTART_AFTER } from '../gym/validate.ts'
import type { ProgramStep } from '../gym/task.ts'

type Row = { episodes: number; requests: number; reset: number; run: number; verify: number; close: number }
const rows = new Map<string, Row>()
const perTask: { id: string; family: string; cpu: number; requests: number }[] = []
const cpu = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

const argv = process.argv
const sample = argv.includes('--sample') ? Number(argv[argv.indexOf('--sample') + 1]) : 1
const named = argv.flatMap((a, i) => (argv[i - 1] === '--family' ? a.split(',') : [])).filter(Boolean)
const gym = createGym({ tasks: [], reuseWorlds: true })
// Prepared as validateTask prepares them: each reset takes the frozen spec without parsing or hashing it again.
const tasks = loadSample(sample, named).map((t) => gym.prepare(t))
let requests = 0
// Episodes call requestInProcess: an in-process request reaches app.fetch, anything else app.request.
const request = gym.app.request.bind(gym.app)
gym.app.request = ((...a: Parameters<typeof request>) => {
  requests++
  return request(...a)
}) as typeof gym.app.request
const dispatch = gym.app.fetch
gym.app.fetch = ((...a: Parameters<typeof dispatch>) => {
  if (isInProcessRequest(a[0])) requests++
  return dispatch(...a)
}) as typeof gym.app.fetch

type Ep = ReturnType<typeof gym.reset>
// As validateTask: a task's episodes share one world identity, rolled back between them (--isolated: one each);
// unless --no-share-prefix also the requests they repeat (gym/shared-prefix.ts), which are then not counted (they
// never reach the app). SHARE_DEPTH=N: savepoints after the first N requests of an episode only.
const depth = argv.includes('--no-share-prefix') ? 0 : Number(process.env.SHARE_DEPTH ?? Infinity)
// SHARE_RESTART=N: an episode starts afresh once N requests ran since the last did (validateTask's RESTART_AFTER).
const restartAfter = Number(process.env.SHARE_RESTART ?? RESTART_AFTER)
const isolated = argv.includes('--isolated')
// As validateTask: a chain that shares requests runs the episodes in the order that shares the most
// (gym/episode-order.ts); --listed-order runs them as validation lists them (no-op, reference, near misses, attacks).
const reorder = !isolated && depth > 0 && !argv.includes('--listed-order')

/** The actor's requests of the current episode: key, and whether it ran for real (census). */
let sent: { key: string; real: boolean }[] = []
class CensusPrefix extends SharedPrefix {
  override async request(key: string, run: () => Promise<Sent>) {
    const before = this.replayed
    const result = await super.request(key, run)
    sent.push({ key, real: this.replayed === before })
    return result
  }
}
const census = argv.includes('--census')
const counts = {
  requests: 0,
  real: 0,
  prefixes: 0,
  repeatEpisodes: 0,
  repeatReal: 0,
  reads: 0,
  readAgain: 0,
  readBefore: 0,
}
/** Per task: the prefixes of its episodes' request sequences, the sequences, and the reads run for real. */
let inTask = { prefixes: new Set<string>(), sequences: new Set<string>(), reads: new Set<string>() }
function tally() {
  const real = sent.filter((r) => r.real).length
  counts.requests += sent.length
  counts.real += real
  const sequence = JSON.stringify(sent.map((r) => r.key))
  if (sent.length && inTask.sequences.has(sequence)) {
    counts.repeatEpisodes++
    counts.repeatReal += real
  }
  inTask.sequences.add(sequence)
  let prefix = ''
  for (const r of sent) inTask.prefixes.add((prefix += `\n${r.key}`))
  let reads = new Set<string>() // since the episode's last other request
  for (const r of sent) {
    if (!r.key.startsWith('["GET"')) {
      reads = new Set()
      continue
    }
    if (r.real) {
      counts.reads++
      if (reads.has(r.key)) counts.readAgain++
      if (inTask.reads.has(r.key)) counts.readBefore++
      inTask.reads.add(r.key)
    }
    reads.add(r.key)
  }
  sent = []
}

let shared: SharedPrefix | undefined
let replayed = 0
async function episode(kind: string, task: (typeof tasks)[number], body: (ep: Ep) => Promise<unknown>) {
  let row = rows.get(kind)
  if (!row) rows.set(kind, (row = { episodes: 0, requests: 0, reset: 0, run: 0, verify: 0, close: 0 }))
  const r0 = requests
  let t = cpu()
  const ep = gym.reset(task, { shared })
  row.reset += cpu() - t
  t = cpu()
  try {
    await body(ep)
  } catch {
    /* attacks may throw */
  }
  row.run += cpu() - t
  t = cpu()
  ep.verify()
  outcomeOf(ep, ep.lastVerified?.diff, ep.lastVerified?.actions)
  row.verify += cpu() - t
  t = cpu()
  ep.close()
  row.close += cpu() - t
  row.episodes++
  row.requests += requests - r0
  if (census) tally()
}

const t0 = cpu()
for (const task of tasks) {
  const c0 = cpu()
  const q0 = requests
  shared = isolated ? undefined : new (census ? CensusPrefix : SharedPrefix)(depth, restartAfter)
  inTask = { prefixes: new Set(), sequences: new Set(), reads: new Set() }
  const listed: { kind: string; starts: readonly ProgramStep[]; body: (ep: Ep) => Promise<unknown> }[] = [
    { kind: 'no-op', starts: [], body: async () => {} },
    { kind: 'reference', starts: task.reference, body: (ep) => runProgram(ep, task.reference) },
    ...task.nearMisses.map((nm) => ({
      kind: 'near miss',
      starts: nm.program,
      body: (ep: Ep) => runProgram(ep, nm.program),
    })),
    ...attacks.flatMap((a) =>
      a.variants(task).map((v) => ({
        kind: `${a.id}: ${v.name}`,
        starts: v.starts ?? [],
        body: (ep: Ep) => v.run(new AttackContext(gym, task, ep)),
      })),
    ),
  ]
  const order = reorder ? sharingOrder(listed.map((e) => e.starts)) : listed.map((_, i) => i)
  for (const i of order) await episode(listed[i]!.kind, task, listed[i]!.body)
  replayed += shared?.replayed ?? 0
  counts.prefixes += inTask.prefixes.size
  shared?.dispose(gym.worlds)
  perTask.push({ id: task.id, family: task.family, cpu: cpu() - c0, requests: requests - q0 })
}
const total = cpu() - t0
gym.worlds.close()

const f = (x: number) => x.toFixed(2)
const list = [...rows.entries()].sort((a, b) => b[1].run + b[1].verify - (a[1].run + a[1].verify))
const report = census ? { census: counts } : {}
if (argv.includes('--json'))
  console.log(JSON.stringify({ total, rows: Object.fromEntries(list), perTask, ...report }, null, 1))
else {
  console.log(
    `${tasks.length} tasks, ${requests} requests, ${replayed} answered from the shared path,`,
    `${f(total)} CPU-s`,
  )
  const sum = { reset: 0, run: 0, verify: 0, close: 0 }
  for (const [, r] of list) for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += r[k]
  console.log(`split: reset ${f(sum.reset)}  run ${f(sum.run)}  verify ${f(sum.verify)}  close ${f(sum.close)}`)
  console.log('kind'.padEnd(58), 'eps', 'req/ep', 'run-s', 'verify-s', 'reset-s')
  for (const [k, r] of list)
    console.log(
      k.slice(0, 58).padEnd(58),
      String(r.episodes).padStart(3),
      (r.requests / r.episodes).toFixed(1).padStart(6),
      f(r.run).padStart(6),
      f(r.verify).padStart(7),
      f(r.reset).padStart(6),
    )
  if (census) {
    const c = counts
    console.log(
      `census: the actor sent ${c.requests} requests, ${c.real} ran for real; a perfect replay would run ${c.prefixes}`,
      `(distinct prefixes); ${c.repeatEpisodes} episodes repeated an earlier one's whole sequence (${c.repeatReal}`,
      `ran for real); of ${c.reads} reads run for real, ${c.readAgain} repeated one of their episode with no other`,
      `request between, ${c.readBefore} had run for real before in the task`,
    )
  }
  console.log('\nslowest tasks')
  for (const p of [...perTask].sort((a, b) => b.cpu - a.cpu).slice(0, 15))
    console.log(`${p.id.padEnd(50)} ${f(p.cpu)} CPU-s ${p.requests} req`)
}
