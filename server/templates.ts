import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Snapshot } from '../envs/core/world.ts'
import { WorldManager } from './worlds.ts'

/**
 * Named seeds baked at build time. `npm run build` compiles the server into dist/ and then writes the template
 * of each seed below with that same compiled code, so `wsgym serve` restores the default world from bytes
 * instead of seeding it again at every start. Only the compiled server reads them (dist/templates/).
 */
export const BAKED_SEEDS: readonly { seed: string; seedValue: number }[] = [
  { seed: 'demo', seedValue: 1 },
  { seed: 'empty', seedValue: 1 },
]

const here = dirname(fileURLToPath(import.meta.url))

/** dist/templates when this module runs compiled; undefined when it runs from the TypeScript sources. */
export const BAKED_DIR = import.meta.url.endsWith('.js') ? join(here, '..', 'templates') : undefined

const fileName = (seed: string, seedValue: number) => `${encodeURIComponent(seed)}@${seedValue}.sqlite`

/** Builds each baked seed's template and writes its bytes to `dir`. */
export function bakeTemplates(dir: string): string[] {
  mkdirSync(dir, { recursive: true })
  const worlds = new WorldManager()
  try {
    return BAKED_SEEDS.map(({ seed, seedValue }) => {
      const file = join(dir, fileName(seed, seedValue))
      writeFileSync(file, worlds.template(seed, seedValue).bytes)
      return file
    })
  } finally {
    worlds.close()
  }
}

/** Hands every baked template in `dir` to `worlds`, so creating a world from those seeds skips seeding. */
export function adoptBakedTemplates(worlds: WorldManager, dir: string | undefined): number {
  if (!dir || !existsSync(dir)) return 0
  let n = 0
  for (const f of readdirSync(dir)) {
    const m = /^(.+)@(\d+)\.sqlite$/.exec(f)
    if (!m) continue
    worlds.adoptTemplate(decodeURIComponent(m[1]!), Number(m[2]), bakedSnapshot(join(dir, f)))
    n++
  }
  return n
}

/**
 * A baked template read from its file on first use and then held weakly (docs/decisions/0299): SQLite copies the
 * bytes into every world it opens from them, so an idle server need not keep them (a template the start does not
 * use is never read); a world made after the buffer was collected reads the file again. `size` is the file's, so
 * the template cache counts it without reading it; `file` lets an unopened world's users be read (worlds.ts).
 */
export function bakedSnapshot(file: string): Snapshot & { readonly size: number; readonly file: string } {
  const size = statSync(file).size
  let held: WeakRef<Buffer> | undefined
  return {
    size,
    file,
    get bytes() {
      let bytes = held?.deref()
      if (!bytes) held = new WeakRef((bytes = readFileSync(file)))
      return bytes
    },
  }
}
