import { readdirSync, readFileSync, existsSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { TaskSpec } from './task.ts'
import { generateAll, instance, PER_FAMILY } from '../tasks-lite/corpus.ts'
import { families } from '../tasks-lite/families/index.ts'

const here = dirname(fileURLToPath(import.meta.url))

/** Folder of the task corpus (`tasks-lite/corpus/<family>/*.json`); compiled code runs from dist/gym/. */
export const CORPUS_DIR =
  [join(here, '..', 'tasks-lite', 'corpus'), join(here, '..', '..', 'tasks-lite', 'corpus')].find(existsSync) ??
  join(here, '..', 'tasks-lite', 'corpus')

/**
 * The task corpus. Without a folder: generated in memory from the families (about a second, never stale; the index
 * pins it). With one: every task JSON file under it (`<dir>/<family>/*.json`), validated.
 */
export function loadCorpus(dir?: string): TaskSpec[] {
  // Ordered as the files are read (family folder, then file name, plain sort), so both views agree.
  const key = (t: TaskSpec) => fileKey(t.family, t.id)
  if (dir === undefined) return generateAll().sort((a, b) => byKey(key(a), key(b)))
  if (!existsSync(dir)) return []
  const out: TaskSpec[] = []
  for (const family of readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()) {
    for (const f of readdirSync(join(dir, family))
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      out.push(TaskSpec.parse(JSON.parse(readFileSync(join(dir, family, f), 'utf8'))))
    }
  }
  return out
}

const fileKey = (family: string, id: string) => `${family}/${id}.json`
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * What `sampleTasks(loadCorpus(), perFamily, only)` (scripts/validate-tasks.ts) gives — up to `perFamily` instances
 * of each family (all when undefined), of the named families (all when none), in corpus order — generating only
 * those instances instead of the whole corpus. Corpus order is known before generating: instance `n` of family `f`
 * is `<f>-<n>` (checked on each generated task; a family that broke that would throw here, not reorder silently).
 */
export function loadSample(perFamily?: number, only?: readonly string[]): TaskSpec[] {
  const named = only && only.length ? new Set(only) : undefined
  const seeds = Array.from({ length: PER_FAMILY }, (_, i) => i + 1)
  const slots = families
    .filter((f) => !named || named.has(f.id))
    .flatMap((f) => seeds.map((seed) => ({ f, seed, key: fileKey(f.id, `${f.id}-${seed}`) })))
    .sort((a, b) => byKey(a.key, b.key))
  const taken = new Map<string, number>()
  const out: TaskSpec[] = []
  for (const s of slots) {
    const n = taken.get(s.f.id) ?? 0
    if (perFamily !== undefined && n >= perFamily) continue
    taken.set(s.f.id, n + 1)
    const t = instance(s.f, s.seed)
    if (fileKey(t.family, t.id) !== s.key) throw new Error(`${s.f.id} seed ${s.seed} generated ${t.family}/${t.id}`)
    out.push(t)
  }
  return out
}
