import { readdirSync, readFileSync, existsSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { TaskSpec } from './task.ts'

const here = dirname(fileURLToPath(import.meta.url))

/** Folder of the task corpus (`tasks-lite/corpus/<family>/*.json`); compiled code runs from dist/gym/. */
export const CORPUS_DIR = [join(here, '..', 'tasks-lite', 'corpus'), join(here, '..', '..', 'tasks-lite', 'corpus')].find(existsSync)
  ?? join(here, '..', 'tasks-lite', 'corpus')

/** Loads and validates every task JSON file of the corpus. */
export function loadCorpus(dir = CORPUS_DIR): TaskSpec[] {
  if (!existsSync(dir)) return []
  const out: TaskSpec[] = []
  for (const family of readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    for (const f of readdirSync(join(dir, family)).filter((f) => f.endsWith('.json')).sort()) {
      out.push(TaskSpec.parse(JSON.parse(readFileSync(join(dir, family, f), 'utf8'))))
    }
  }
  return out
}
