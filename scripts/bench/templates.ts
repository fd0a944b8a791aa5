/**
 * CPU of building the validated tasks' templates, as validation builds them (gym/index.ts `prepare`: the keyed
 * document of a task with volume, else its inline seed; server/worlds.ts `#template`: `buildWorld`, `snapshot`),
 * one build per distinct template key, in corpus order. Prints CPU seconds (process and main thread) per phase and
 * a sha256 over every template's snapshot bytes (a byte change shows there). A measurement tool, not a test.
 * Usage: node --import tsx scripts/bench/templates.ts [--sample N] [--rounds R] [--bytes FILE]
 *   --bytes FILE writes `key sha256` per template (to compare two trees template by template).
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { loadSample } from '../../gym/corpus.ts'
import { worldTemplate } from '../../gym/world.ts'
import { buildWorld } from '../../server/seeding.ts'

const argv = process.argv
const arg = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined)
const sample = arg('--sample') === undefined ? undefined : Number(arg('--sample'))
const rounds = Number(arg('--rounds') ?? 1)
const bytesFile = arg('--bytes')

const schedstat = '/proc/thread-self/schedstat'
const mainS = () => (existsSync(schedstat) ? Number(readFileSync(schedstat, 'utf8').split(' ')[0]) / 1e9 : 0)
const processS = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

const tasks = loadSample(sample)
const seen = new Set<string>()
const templates: { key: string; seedValue: number; build: () => unknown }[] = []
for (const spec of tasks) {
  if (typeof spec.seed === 'string') continue
  const keyed = worldTemplate(spec)
  const seed = spec.seed as Record<string, unknown>
  const key = keyed?.key ?? `inline:${createHash('sha256').update(JSON.stringify(seed)).digest('hex')}`
  if (seen.has(`${key}:${spec.seedValue}`)) continue
  seen.add(`${key}:${spec.seedValue}`)
  templates.push({ key, seedValue: spec.seedValue, build: keyed ? keyed.build : () => seed })
}

for (let r = 0; r < rounds; r++) {
  const t = { doc: 0, build: 0, snapshot: 0, close: 0 }
  const m0 = mainS()
  const p0 = processS()
  const digest = createHash('sha256')
  const lines: string[] = []
  for (const tpl of templates) {
    let c = processS()
    const doc = tpl.build()
    let n = processS()
    t.doc += n - c
    c = n
    const world = buildWorld(doc, tpl.seedValue)
    n = processS()
    t.build += n - c
    c = n
    const bytes = world.snapshot().bytes
    n = processS()
    t.snapshot += n - c
    c = n
    world.close()
    t.close += processS() - c
    digest.update(bytes)
    if (bytesFile) lines.push(`${tpl.key}:${tpl.seedValue} ${createHash('sha256').update(bytes).digest('hex')}`)
  }
  const f = (s: number) => s.toFixed(2)
  console.log(
    `round ${r + 1}: ${templates.length} templates, process ${f(processS() - p0)} CPU-s, main ${f(mainS() - m0)} ` +
      `(doc ${f(t.doc)}, buildWorld ${f(t.build)}, snapshot ${f(t.snapshot)}, close ${f(t.close)}); ` +
      `bytes ${digest.digest('hex').slice(0, 16)}`,
  )
  if (bytesFile && r === 0) writeFileSync(bytesFile, lines.join('\n') + '\n')
}
