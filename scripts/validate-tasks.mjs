#!/usr/bin/env node
// `npm run tasks:validate`: runs the validator compiled by `npm run build` (dist/validate/, which `npm ci` builds
// as `prepare`) when it is current, else its TypeScript sources through tsx, saying so. Same arguments, same output:
// see scripts/validate-tasks.ts.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { distIsFresh } from '../bin/dist-fresh.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const compiled = join(root, 'dist', 'validate', 'validate-tasks.js')
let validator
if (existsSync(compiled) && distIsFresh(root)) {
  validator = await import(pathToFileURL(compiled).href)
} else {
  console.error('tasks:validate: dist/ is missing or older than the sources; running them through tsx (npm run build)')
  const { register } = await import('tsx/esm/api')
  register()
  validator = await import('./validate-tasks.ts')
}
await validator.main()
