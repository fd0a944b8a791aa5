#!/usr/bin/env node
// npm run build (also `prepare`, which `npm ci` runs): bundles the server with esbuild into dist/server/ (one
// module graph instead of ~700 files to resolve at start; type checking stays `npm run typecheck`'s job) and
// bakes the default seeds' templates with the bundled code. bin/wsgym.mjs runs dist/ when it is up to date.
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const dist = `${root}dist`
let esbuild
try {
  esbuild = await import('esbuild')
} catch {
  // An install without dev dependencies: bin/wsgym.mjs falls back to the sources through tsx.
  console.warn('wsgym build: esbuild is not installed; skipping the compiled build')
  process.exit(0)
}
/**
 * zod re-exports all of its ~50 locales as `z.locales` (300 KB of the start bundle: V8 holds their source and
 * parses them with the chunk that holds zod, the largest parse of the start). Nothing here reads `z.locales`, and
 * zod's default messages come from its English locale, which `classic/schemas.js` imports itself: the bundle's
 * `z.locales` namespace keeps English only, so every message stays the same (docs/decisions/0299).
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: args.importer, namespace: 'zod-english-only' } : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: "export { default as en } from '../locales/en.js'",
      resolveDir: dirname(args.path),
      loader: 'js',
    }))
  },
}
/**
 * V8 parses each script's top-level code in one zone, and glibc keeps the heap's peak (the launcher raises the trim
 * threshold, docs/decisions/0161), so the largest script a start loads sets part of an idle server's memory. More
 * entry points make esbuild cut the code every start loads into more, smaller chunks: each service's provider and
 * the large libraries become parts of their own (their `part-*.js` entries are never imported; docs/decisions/0314).
 */
const services = readdirSync(`${root}envs`).filter((d) => existsSync(`${root}envs/${d}/index.ts`))
const libraries = [
  'zod',
  'zod/v4/core',
  '@asteasolutions/zod-to-openapi',
  '@hono/zod-openapi',
  'hono',
  'drizzle-orm/sqlite-core',
  'luxon',
  'rrule',
]
const parts = [
  ...services.map((s) => ({ in: `envs/${s}/index.ts`, out: `part-${s}` })),
  ...libraries.map((l) => ({ in: l, out: `part-${l.replace(/[@/]/g, (c) => (c === '/' ? '-' : ''))}` })),
]
const started = performance.now()
rmSync(dist, { recursive: true, force: true })
// What the server bundle and the validator's bundle share (the validator's options differ only in their entries).
const common = {
  absWorkingDir: root,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Native or file-reading packages stay in node_modules (pdfkit reads its fonts next to its own files); re2js is
  // large and loaded only on a Docs regex search.
  external: ['better-sqlite3', 'pdfkit', 'docx', 're2js'],
  // V8 holds every loaded script's source text for lazy compilation: without comments and indentation the
  // bundle's sources take less than half the heap (identifiers are kept, so stack traces still name functions).
  minifyWhitespace: true,
  minifySyntax: true,
  // CommonJS packages inside an ES module bundle still call require().
  banner: {
    js: "import { createRequire as __req } from 'node:module'; const require = __req(import.meta.url);",
  },
  plugins: [zodEnglishOnly],
  logLevel: 'warning',
}
await esbuild.build({
  ...common,
  entryPoints: ['server/cli.ts', 'server/templates.ts', ...parts],
  outdir: 'dist/server',
  outbase: 'server',
})
/**
 * `npm run tasks:validate` (scripts/validate-tasks.mjs) runs this bundle when it is current: compiled once here
 * instead of through tsx's loader at every start and in every worker thread, ~7 % less CPU (docs/decisions/0338).
 * The worker thread's entry sits next to the pool's chunk, where gym/validate-pool.ts looks for it.
 */
await esbuild.build({
  ...common,
  entryPoints: { 'validate-tasks': 'scripts/validate-tasks.ts', 'validate-worker': 'gym/validate-worker.ts' },
  outdir: 'dist/validate',
  // tsx is loaded only when the sources run (gym/validate-pool.ts boots a worker through it then).
  external: [...common.external, 'tsx'],
})
asciiOnly(`${dist}/server`)
asciiOnly(`${dist}/validate`)
// Generated tables are data read on first use (envs/core/generated-json.ts): dist/<svc>/api/, next to dist/server/.
for (const s of services) {
  for (const name of readdirSync(`${root}envs/${s}/api`).filter((n) => n.endsWith('.gen.json'))) {
    mkdirSync(`${dist}/${s}/api`, { recursive: true })
    copyFileSync(`${root}envs/${s}/api/${name}`, `${dist}/${s}/api/${name}`)
  }
}
// The Discovery documents the agent port serves (server/api-discovery.ts): dist/specs/, next to dist/server/.
mkdirSync(`${dist}/specs`, { recursive: true })
for (const name of readdirSync(`${root}specs`).filter((n) => n.endsWith('.discovery.json'))) {
  copyFileSync(`${root}specs/${name}`, `${dist}/specs/${name}`)
}
const { bakeTemplates } = await import(`${dist}/server/templates.js`)
const baked = bakeTemplates(`${dist}/templates`)
// bin/wsgym.mjs compares this stamp with the sources' modification times to notice a stale build.
writeFileSync(`${dist}/.built`, `${new Date().toISOString()}\n`)
const seconds = ((performance.now() - started) / 1000).toFixed(1)
console.log(`wsgym build: dist/ in ${seconds} s (${baked.length} templates baked)`)

/**
 * V8 keeps each script's source for lazy compilation, in one byte per character only when every character is
 * Latin-1: one curly quote in a comment doubles the memory of a 4 MB bundle. esbuild already escapes strings; what
 * is left (comments, regular expression literals, tagged templates, whose tags here read cooked strings) becomes
 * `\uXXXX` escapes, which mean the same character in all three. A file where that could change a meaning (an
 * escaped character, or String.raw on the line) is left as it is.
 */
function asciiOnly(dir) {
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.js'))) {
    const path = `${dir}/${name}`
    const text = readFileSync(path, 'utf8')
    if (!/[^\x00-\x7f]/.test(text)) continue
    const risky = text
      .split('\n')
      .some((line) => /[^\x00-\x7f]/.test(line) && (/\\[^\x00-\x7f]/.test(line) || line.includes('String.raw')))
    if (risky) {
      console.warn(`wsgym build: ${name} keeps non-ASCII characters (escaping them could change a meaning)`)
      continue
    }
    const escape = (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`
    writeFileSync(path, text.replace(/[^\x00-\x7f]/g, escape))
  }
}
