#!/usr/bin/env node
// Entry point of the `wsgym` command: runs the TypeScript sources through tsx (a runtime dependency).
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../server/cli.ts')
process.exitCode = await main(process.argv.slice(2))
