// Longer campaigns of the sequence fuzzer (tests/robustness/fuzz/, docs/decisions/0442):
//   node --import tsx scripts/fuzz-sequences.ts [--seeds 1-50] [--steps 150] [--services gmail,slack] [--twice]
// Prints one line per seed; `--twice` also reruns each seed on a fresh world and compares bodies and dumps.
import { parseArgs } from 'node:util'
import { runSequence } from '../tests/robustness/fuzz/engine.ts'
import { opsFor } from '../tests/robustness/fuzz/ops.ts'

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '1-20' },
    steps: { type: 'string', default: '120' },
    services: { type: 'string' },
    twice: { type: 'boolean', default: false },
  },
})
const [lo, hi] = values.seeds.split('-').map(Number) as [number, number | undefined]
const steps = Number(values.steps)
const { ops, setup, world } = opsFor(values.services?.split(','))
let failed = 0
for (let seed = lo; seed <= (hi ?? lo); seed++) {
  const a = await runSequence(seed, steps, ops, setup, world)
  let problem = a.failure
  if (!problem && values.twice) {
    const b = await runSequence(seed, steps, ops, setup, world)
    const i = a.transcript.findIndex((line, k) => line !== b.transcript[k])
    if (i >= 0 || a.transcript.length !== b.transcript.length) {
      problem = `nondeterministic body at ${i}: ${a.transcript[i]?.slice(0, 300)} vs ${b.transcript[i]?.slice(0, 300)}`
    } else if (a.state !== b.state) problem = 'nondeterministic final state'
  }
  if (problem) failed++
  console.log(`seed ${seed}: ${problem ?? `ok (${a.transcript.length} calls)`}`)
}
console.log(`${failed} of ${(hi ?? lo) - lo + 1} seeds failed`)
process.exitCode = failed ? 1 : 0
