#!/usr/bin/env node
// Entry point of the `wsgym` command. Runs the compiled server in dist/ (built by `npm run build`, which
// `npm ci` runs as `prepare`); a checkout without dist/, or whose sources changed after the build, runs the
// TypeScript sources through tsx instead (slower to start) and says so.
//
// On glibc, big world images (restore, snapshot, fork) need the allocator's mmap and trim thresholds raised and
// memcpy's non-temporal threshold lowered before the process starts (docs/decisions/0005, 0161, 0291): the
// launcher re-executes itself once with them set, unless the caller set them or WSGYM_NO_MALLOC_ENV=1.
// `serve` holds V8's young generation at its initial size (docs/decisions/0299) and TurboFan off (0343) until the
// server is ready.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { allocatorEnv } from './allocator-env.mjs'
import { distIsFresh } from './dist-fresh.mjs'
import { holdOptimizer, mayHoldOptimizer } from './optimizer-hold.mjs'
import { holdYoungGeneration, mayHoldYoungGeneration } from './young-generation.mjs'

const addEnv = allocatorEnv(process.env)

if (addEnv) {
  const env = { ...process.env, ...addEnv, WSGYM_NO_MALLOC_ENV: '1' }
  const argv = [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)]
  const child = spawn(process.execPath, argv, { env, stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal)
    else process.exit(code ?? 1)
  })
} else if (process.argv[2] === 'eval' || process.argv[2] === 'train') {
  // `wsgym eval …` and `wsgym train <command> …` are the trainer's CLI (trainer/cli.ts), which talks to a running
  // gym over HTTP; it is not part of the compiled server and runs from its TypeScript sources.
  const { register } = await import('tsx/esm/api')
  register()
  const argv = process.argv.slice(2)
  const { main } = await import('../trainer/cli.ts')
  process.exitCode = await main(argv[0] === 'eval' ? argv : argv.slice(1))
} else if (process.argv[2] === 'tasks') {
  // `wsgym tasks …` (list, export --format harbor) reads the task corpus, which the compiled server does not bundle.
  const { register } = await import('tsx/esm/api')
  register()
  const { main } = await import('../gym/tasks-cli.ts')
  process.exitCode = await main(process.argv.slice(3))
} else {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..')
  // `serve` starts with V8's young generation held small and TurboFan off, and releases both once ready
  // (./young-generation.mjs, ./optimizer-hold.mjs).
  const serve = process.argv[2] === 'serve'
  const releases = [
    serve && mayHoldYoungGeneration(process.execArgv, process.env.NODE_OPTIONS) && holdYoungGeneration(),
    serve && mayHoldOptimizer(process.execArgv, process.env.NODE_OPTIONS) && holdOptimizer(),
  ].filter((r) => r)
  const ready = releases.length ? () => releases.forEach((release) => release()) : undefined
  const { main } = distIsFresh(root)
    ? await import(pathToFileURL(join(root, 'dist', 'server', 'cli.js')).href)
    : await fromSources()
  process.exitCode = await main(process.argv.slice(2), { ready })

  async function fromSources() {
    if (existsSync(join(root, 'dist'))) {
      console.error('wsgym: dist/ is older than the sources; running them through tsx (npm run build)')
    }
    const { register } = await import('tsx/esm/api')
    register()
    return import('../server/cli.ts')
  }
}
