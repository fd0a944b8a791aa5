import { readFileSync } from 'node:fs'
import { onFirstRead } from './lazy.ts'

/**
 * Where generated tables (`envs/<svc>/api/*.gen.json`) are read from: `envs/` next to this file's folder when running
 * the sources, `dist/` when bundled (chunks live in dist/server/, and `npm run build` copies the tables to
 * dist/<svc>/api/).
 */
const tablesRoot = new URL('../', import.meta.url)

/**
 * A generated table read and parsed on first read, then kept: its data is not in any script's source, which V8
 * would hold in the heap for the life of the process (docs/decisions/0314). `path` is `<svc>/api/<name>.gen.json`.
 */
export function generatedTable<T>(path: string): () => T {
  return onFirstRead(() => JSON.parse(readFileSync(new URL(path, tablesRoot), 'utf8')) as T)
}
