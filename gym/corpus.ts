import { readdirSync, readFileSync, existsSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { TaskSpec } from './task.ts'
import { generateAll } from '../tasks-lite/corpus.ts'

const here = dirname(fileURLToPath(import.meta.url))

/** Folder of the task corpus (`tasks-lite/corpus/<family>/*.json`); compiled code runs from dist/gym/. */
export const CORPUS_DIR = [join(here, '..', 'tasks-lite', 'corpus'), join(here, '..', '..', 'tasks-lite', 'corpus')].find(existsSync)
  ?? join(here, '..', 'tasks-lite', 'corpus')

/**
 * The task corpus. Without a folder: generated in memory from the families (about a second, never stale; the index
 * pins it). With one: every task JSON file under it (`<dir>/<family>/*.json`), validated.
 */
export function loadCorpus(dir?: string): TaskSpec[] {
  // Ordered as the files are read (family folder, then file name, plain sort), so both views agree.
  const key = (t: TaskSpec) => `${t.family}/${t.id}.json`
  if (dir === undefined) return generateAll().sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
  if (!existsSync(dir)) return []
  const out: TaskSpec[] = []
  for (const family of readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    for (const f of readdirSync(join(dir, family)).filter((f) => f.endsWith('.json')).sort()) {
      out.push(TaskSpec.parse(JSON.parse(readFileSync(join(dir, family, f), 'utf8'))))
    }
  }
  return out
}
