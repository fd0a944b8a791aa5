/**
 * Writes the task corpus: `tasks-lite/corpus/<family>/<id>.json`, N seeded instances per family, each validated
 * against TaskSpec. Usage: `node --import tsx tasks-lite/generate.ts [--per-family 8]`.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { TaskSpec } from '../gym/task.ts'
import { CORPUS_DIR } from '../gym/corpus.ts'
import { families } from './families/index.ts'

export const DEFAULT_PER_FAMILY = 8

/** Every instance of every family (seeds 1..n), parsed. */
export function generateAll(perFamily = DEFAULT_PER_FAMILY): TaskSpec[] {
  return families.flatMap((f) => Array.from({ length: perFamily }, (_, i) => TaskSpec.parse(f.generate(i + 1))))
}

if (process.argv[1]?.endsWith('generate.ts')) {
  const i = process.argv.indexOf('--per-family')
  const n = i > 0 ? Number(process.argv[i + 1]) : DEFAULT_PER_FAMILY
  rmSync(CORPUS_DIR, { recursive: true, force: true })
  const tasks = generateAll(n)
  for (const t of tasks) {
    mkdirSync(join(CORPUS_DIR, t.family), { recursive: true })
    writeFileSync(join(CORPUS_DIR, t.family, `${t.id}.json`), `${JSON.stringify(t, null, 2)}\n`)
  }
  console.log(`wrote ${tasks.length} tasks in ${families.length} families to ${CORPUS_DIR}`)
}
