#!/usr/bin/env node
// Entry point of the `wsgym` command: runs the TypeScript sources through tsx (a runtime dependency).
import { register } from 'tsx/esm/api'

register()
const argv = process.argv.slice(2)
// `wsgym eval …` and `wsgym train <command> …` are the trainer's CLI (trainer/cli.ts), which talks to a running gym
// over HTTP; everything else is the server's.
if (argv[0] === 'eval' || argv[0] === 'train') {
  const { main } = await import('../trainer/cli.ts')
  process.exitCode = await main(argv[0] === 'eval' ? argv : argv.slice(1))
} else {
  const { main } = await import('../server/cli.ts')
  process.exitCode = await main(argv)
}
