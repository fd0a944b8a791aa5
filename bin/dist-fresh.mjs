// Whether dist/ (built by `npm run build`) is current: its stamp exists and no source it was built from changed
// since. Used by bin/wsgym.mjs (the server) and scripts/validate-tasks.mjs (the task validator).
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Folders (and files) whose TypeScript sources and generated tables the bundles in dist/ are built from. */
const SOURCES = ['envs', 'server', 'seeds', 'gym', 'oracles', 'tasks-lite', 'scripts/validate-tasks.ts']

/** True when `root`/dist/.built exists and no `.ts` or `.gen.json` file among the sources is newer. */
export function distIsFresh(root) {
  const built = join(root, 'dist', '.built')
  if (!existsSync(built)) return false
  const ms = statSync(built).mtimeMs
  const walk = (path) => {
    if (!existsSync(path)) return false
    if (!statSync(path).isDirectory()) return statSync(path).mtimeMs > ms
    for (const e of readdirSync(path, { withFileTypes: true })) {
      const p = join(path, e.name)
      const source = e.name.endsWith('.ts') || e.name.endsWith('.gen.json')
      if (e.isDirectory() ? walk(p) : source && statSync(p).mtimeMs > ms) return true
    }
    return false
  }
  return !SOURCES.some((d) => walk(join(root, d)))
}
