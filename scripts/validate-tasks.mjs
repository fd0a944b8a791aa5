#!/usr/bin/env node
// `npm run tasks:validate`: runs the validator compiled by `npm run build` (dist/validate/, which `npm ci` builds
// as `prepare`) when it is current, else its TypeScript sources through tsx, saying so. Same arguments, same output:
// see scripts/validate-tasks.ts.
import { existsSync } from 'node:fs'
import v8 from 'node:v8'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { distIsFresh } from '../bin/dist-fresh.mjs'

// TurboFan's interrupt budget doubled for this process and its worker threads (V8 reads it as functions run, so set
// before any validation code runs): background compiles were ~20 % of validation's CPU, many of them functions
// re-optimised after a deopt; no main-thread cost measured (docs/decisions/0368). Verdicts do not depend on it.
// An --interrupt-budget given to node itself wins (for A/B runs).
export const VALIDATOR_V8_FLAGS = ['--interrupt-budget=135168']
if (!process.execArgv.some((a) => a.startsWith('--interrupt-budget')))
  for (const flag of VALIDATOR_V8_FLAGS) v8.setFlagsFromString(flag)

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
