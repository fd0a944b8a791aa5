import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { DEFAULT_ADMIN_TOKEN, envDefaults, workerEnv } from './env.ts'
import { startServer, type Running } from './main.ts'
import { checkSeed, SeedError } from './seeding.ts'
import { namedSeeds } from '../seeds/index.ts'
import { DEFAULT_LIMITS, workerLimits, type Limits } from './limits.ts'
import { BAKED_DIR } from './templates.ts'
import { workerOf } from './routing.ts'
import { reportReady, startFront, workerSlot, type FrontOptions } from './workers.ts'

const USAGE = `wsgym — workspace-gym command line

  wsgym serve [options]          serve the agent API and the control plane
      --host H                   bind address (default 127.0.0.1)
      --port N                   agent port (default 8080)
      --control-port N           control-plane port (default 8081)
      --admin-token T            control-plane token (default dev-admin-token, or WSGYM_ADMIN_TOKEN)
      --openenv-key K            OpenEnv key (or WSGYM_OPENENV_KEY): /openenv/K/{ws,reset,step,…} on the control port
      --data-dir DIR             keep worlds in SQLite files (WAL) and reload them on restart
      --secret-file FILE         secret shared by every worker and host of a deployment (or WSGYM_SECRET; at least
                                 32 characters): world secrets derive from it and the world id, so any process
                                 with it accepts a world's tokens. Without it each world's secret is random
      --seed NAME|FILE           seed of the world created at start (default demo; a .json/.yaml file works)
      --seed-value N             seed value (default 1)
      --world ID                 id of that world (default demo). Only the world "demo" of seed "demo" gets the
                                 published demo secret (stable README tokens); every other world a random one
    limits (past one the control plane answers 429/507 JSON with a reason; see docs/security.md):
      --max-worlds N             worlds held at once, episodes included (default 1000)
      --max-snapshots N          named snapshots per world (default 32)
      --max-snapshot-mb N        MiB of named snapshots per world (default 256)
      --max-templates N          cached seed templates (default 64; also --max-template-mb, default 256)
      --max-rss-mb N             refuse new worlds above this resident set (default 85% of the memory limit)
      --max-episodes N           live gym episodes (default 256)
      --fresh-episode-worlds     every gym episode opens a connection of its own (or WSGYM_FRESH_EPISODE_WORLDS=1);
                                 by default an episode of a recurring task reuses a rolled-back one (docs 0450)
      --episode-idle-s N         close an episode idle this long (default 900)
      --episode-max-age-s N      close an episode this old (default 7200)
    agent connections (past a cap: 503 JSON and close; a slow head or body: 408 and close; docs/security.md):
      --max-client-connections N open connections per client address (default 512)
      --max-connections N        open connections in all (default 4096; with --workers per worker, and in the front)
      --headers-timeout-s N      a request head must arrive within this (default 20)
      --body-timeout-s N         longest pause in a request body, and its first allowance (default 30)
      --min-body-kib-s N         after that allowance a body keeps up this average KiB/s (default 16)
      --keep-alive-timeout-s N   close a keep-alive connection idle this long (default 5)
      --workers N                N worker processes behind one front, each world pinned to one by its id
      --slot K/N                 serve only world ids that route to upstream K of N (behind nginx: docs 0160)
  wsgym seed validate FILE       check a seed file (JSON or YAML); errors name the field path
  wsgym seed list                named seeds
  wsgym seed show NAME [--seed-value N]   print a named seed document as JSON
  wsgym tasks list|export …     the task corpus; \`wsgym tasks export --format harbor DIR\` writes Harbor tasks
`

/** Reads a seed document from a JSON or YAML file. */
export async function readSeedFile(file: string): Promise<unknown> {
  const text = readFileSync(file, 'utf8')
  if (!/\.ya?ml$/i.test(file)) return JSON.parse(text)
  // The YAML parser is imported only for a YAML seed file.
  const { parse } = await import('yaml')
  return parse(text)
}

/** What the launcher (bin/wsgym.mjs) hears from a command. */
export type CliHooks = {
  /** `serve` is listening (its start world made, or the workers' front up): start-up allocation is over. */
  ready?: () => void
}

export async function main(argv: string[], hooks: CliHooks = {}): Promise<number> {
  try {
    return await run(argv, hooks)
  } catch (e) {
    // A flag parseArgs refuses (unknown, missing its value): one line and the exit status of a usage error.
    if (!isParseArgsError(e)) throw e
    return fail(`${(e as Error).message.split('\n')[0]} (wsgym --help lists the options)`)
  }
}

const isParseArgsError = (e: unknown) => String((e as { code?: unknown })?.code ?? '').startsWith('ERR_PARSE_ARGS_')

async function run(argv: string[], hooks: CliHooks): Promise<number> {
  const [command, sub, ...rest] = argv
  if ((command === 'serve' || command === 'seed') && argv.some((a) => a === '--help' || a === '-h')) {
    console.log(USAGE)
    return 0
  }
  if (command === 'serve') return serve(argv.slice(1), hooks)
  if (command === 'seed' && sub === 'validate') return validate(rest[0])
  if (command === 'seed' && sub === 'list') {
    for (const name of Object.keys(namedSeeds)) console.log(name)
    return 0
  }
  if (command === 'seed' && sub === 'show') {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { 'seed-value': { type: 'string' } },
      allowPositionals: true,
    })
    const make = namedSeeds[positionals[0] ?? '']
    if (!make) return fail(`unknown seed "${positionals[0] ?? ''}" (known: ${Object.keys(namedSeeds).join(', ')})`)
    const seedValue = seedValueOf(values['seed-value'])
    if (seedValue === undefined) return fail(SEED_VALUE_RULE)
    console.log(JSON.stringify(make(seedValue), null, 2))
    return 0
  }
  console.log(USAGE)
  return command === undefined || command === 'help' || command === '--help' ? 0 : 2
}

function fail(message: string): number {
  console.error(`wsgym: ${message}`)
  return 2
}

/** `serve` could not start: one line on stderr, no stack trace, exit status 1. */
function failServe(message: string): number {
  console.error(`wsgym serve: ${message}`)
  return 1
}

/** One line for what stopped the server from starting: a seed that does not validate, a busy port, anything else. */
function startError(e: unknown, seedArg: string, host: string): string {
  if (e instanceof SeedError) {
    return `invalid seed ${seedArg}: ${e.issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`
  }
  const err = e as NodeJS.ErrnoException & { port?: number; address?: string }
  if (err?.code === 'EADDRINUSE') {
    return `port ${err.port} on ${err.address ?? host} is already in use (choose another with --port / --control-port)`
  }
  if (err?.code === 'EACCES') return `no permission to listen on port ${err.port} on ${err.address ?? host}`
  if (err?.code === 'EADDRNOTAVAIL') return `cannot bind to ${host}: address not available (--host)`
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!
}

async function validate(file: string | undefined): Promise<number> {
  if (!file) return fail('usage: wsgym seed validate FILE')
  let doc: unknown
  try {
    doc = await readSeedFile(file)
  } catch (e) {
    console.error(`${file}: cannot read: ${(e as Error).message}`)
    return 1
  }
  try {
    checkSeed(doc)
  } catch (e) {
    if (!(e instanceof SeedError)) throw e
    for (const issue of e.issues) console.error(`${file}: ${issue.path || '(root)'}: ${issue.message}`)
    return 1
  }
  console.log(`${file}: valid`)
  return 0
}

const MIB = 1024 * 1024
const LIMIT_FLAGS: [flag: string, key: keyof Limits, scale: number][] = [
  ['max-worlds', 'maxWorlds', 1],
  ['max-snapshots', 'maxSnapshotsPerWorld', 1],
  ['max-snapshot-mb', 'maxSnapshotBytesPerWorld', MIB],
  ['max-templates', 'maxTemplates', 1],
  ['max-template-mb', 'maxTemplateBytes', MIB],
  ['max-rss-mb', 'maxRssBytes', MIB],
  ['max-episodes', 'maxEpisodes', 1],
  ['episode-idle-s', 'episodeIdleMs', 1000],
  ['episode-max-age-s', 'episodeMaxAgeMs', 1000],
  ['headers-timeout-s', 'headersTimeoutMs', 1000],
  ['keep-alive-timeout-s', 'keepAliveTimeoutMs', 1000],
  ['body-timeout-s', 'bodyTimeoutMs', 1000],
  ['min-body-kib-s', 'minBodyBytesPerSecond', 1024],
  ['max-client-connections', 'maxConnectionsPerClient', 1],
  ['max-connections', 'maxConnections', 1],
]

/** A port flag's number (0: any free port), or undefined when it is none. */
function portOf(raw: string | number): number | undefined {
  const text = String(raw)
  const n = Number(text)
  return /^\d{1,5}$/.test(text) && n <= 65535 ? n : undefined
}

/** The seed value a flag gives (default 1): a whole number in the control plane's range, or undefined. */
function seedValueOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return 1
  const n = Number(raw)
  return /^\d{1,10}$/.test(raw) && n <= 2 ** 31 - 1 ? n : undefined
}

const SEED_VALUE_RULE = '--seed-value takes a whole number from 0 to 2147483647'

/** Limit flags → Partial<Limits>, or a message naming the bad flag. */
export function limitsFrom(values: Record<string, unknown>): Partial<Limits> | string {
  const out: Partial<Limits> = {}
  for (const [flag, key, scale] of LIMIT_FLAGS) {
    const raw = values[flag]
    if (raw === undefined) continue
    const n = Number(raw)
    if (typeof raw !== 'string' || !/^\d+$/.test(raw) || n < 1) return `--${flag} must be a positive integer`
    out[key] = n * scale
  }
  return out
}

async function serve(args: string[], hooks: CliHooks): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'control-port': { type: 'string' },
      'admin-token': { type: 'string' },
      'openenv-key': { type: 'string' },
      'data-dir': { type: 'string' },
      'secret-file': { type: 'string' },
      seed: { type: 'string' },
      'seed-value': { type: 'string' },
      world: { type: 'string' },
      'max-worlds': { type: 'string' },
      'max-snapshots': { type: 'string' },
      'max-snapshot-mb': { type: 'string' },
      'max-templates': { type: 'string' },
      'max-template-mb': { type: 'string' },
      'max-rss-mb': { type: 'string' },
      'max-episodes': { type: 'string' },
      'episode-idle-s': { type: 'string' },
      'episode-max-age-s': { type: 'string' },
      'headers-timeout-s': { type: 'string' },
      'keep-alive-timeout-s': { type: 'string' },
      'body-timeout-s': { type: 'string' },
      'min-body-kib-s': { type: 'string' },
      'max-client-connections': { type: 'string' },
      'max-connections': { type: 'string' },
      workers: { type: 'string' },
      slot: { type: 'string' },
      'fresh-episode-worlds': { type: 'boolean' },
    },
  })
  const limits = limitsFrom(values)
  if (typeof limits === 'string') return fail(limits)
  const host = values.host ?? envDefaults.host
  const port = portOf(values.port ?? envDefaults.port)
  if (port === undefined) return fail('--port takes a port number from 0 to 65535')
  const controlPort = portOf(values['control-port'] ?? envDefaults.controlPort)
  if (controlPort === undefined) return fail('--control-port takes a port number from 0 to 65535')
  const seedValue = seedValueOf(values['seed-value'])
  if (seedValue === undefined) return fail(SEED_VALUE_RULE)
  const count = Number(values.workers ?? 1)
  if (!Number.isInteger(count) || count < 1 || count > 256) return fail('--workers takes a whole number from 1 to 256')
  // --slot k/N: this process is upstream k of N behind an outside proxy hashing the world id (nginx `hash`).
  const given = values.slot === undefined ? undefined : /^(\d+)\/(\d+)$/.exec(values.slot)
  if (given === null || (given && Number(given[1]) >= Number(given[2]))) return fail('--slot takes k/N with k < N')
  const outside = given ? { index: Number(given[1]), count: Number(given[2]) } : undefined
  const worker = workerSlot()
  if (count > 1 && !worker && !outside) {
    // The front bounds the agent connections it holds until their hand-off with the workers' flags (0410).
    return serveFront({ host, port, controlPort, count, args, connections: { ...DEFAULT_LIMITS, ...limits } }, hooks)
  }
  const slot = worker ?? outside
  const seedArg = values.seed ?? 'demo'
  let seed: string | Record<string, unknown>
  try {
    seed = namedSeeds[seedArg] ? seedArg : ((await readSeedFile(seedArg)) as Record<string, unknown>)
  } catch (e) {
    return failServe(`cannot read seed ${seedArg}: ${(e as Error).message.split('\n')[0]}`)
  }
  const worldId = values.world ?? 'demo'
  const adminToken = values['admin-token'] ?? envDefaults.adminToken
  // The default admin token is published in the README: it may guard a server that only this machine can reach,
  // never one bound to an address an agent's sandbox (or anyone else) can reach.
  if (adminToken === DEFAULT_ADMIN_TOKEN && !isLoopbackHost(host)) {
    const why = 'set a secret --admin-token (or WSGYM_ADMIN_TOKEN)'
    return failServe(`--host ${host} is reachable from other machines: ${why}`)
  }
  const openenvKey = values['openenv-key'] ?? envDefaults.openenvKey
  const secret = serverSecret(values['secret-file'])
  if (typeof secret === 'string') return failServe(secret)
  let running: Running
  try {
    running = await startServer({
      host: worker ? '127.0.0.1' : host,
      port: worker ? 0 : port,
      controlPort: worker ? 0 : controlPort,
      adminToken,
      openenvKey,
      serverSecret: secret.key,
      dataDir: values['data-dir'] ?? envDefaults.dataDir,
      // Caps are per process; a worker's default memory cap is its share of the machine (server/limits.ts).
      limits: worker ? workerLimits(limits, worker.count) : limits,
      // The start world opens on its first use: many runs create their own worlds and never call it (0299).
      worlds: [
        {
          id: worldId,
          seed,
          seedValue,
          publicDemoKeys: worldId === 'demo' && seed === 'demo',
          onFirstUse: true,
        },
      ],
      templatesDir: BAKED_DIR,
      owns: slot ? (id) => workerOf(id, slot.count) === slot.index : undefined,
      publicAgentUrl: worker ? workerEnv.agentUrl : envDefaults.publicAgentUrl,
      handoff: worker !== undefined,
      freshEpisodeWorlds: values['fresh-episode-worlds'] || undefined,
    })
  } catch (e) {
    return failServe(startError(e, seedArg, host))
  }
  const stop = async () => {
    await running.close()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  hooks.ready?.()
  if (worker) reportReady(running.agentUrl, running.controlUrl)
  // With workers, the one serving the start world prints the banner, with the front's URLs.
  if (!running.worlds.find(worldId)) {
    if (outside)
      console.log(`workspace-gym slot ${values.slot} ready: agent ${running.agentUrl}, control ${running.controlUrl}`)
    return await new Promise<number>(() => {})
  }
  const agentUrl = worker ? workerEnv.agentUrl! : running.agentUrl
  const controlUrl = worker ? workerEnv.controlUrl! : running.controlUrl
  const creds = running.worlds.credentials(worldId)
  console.log(`workspace-gym serving world "${worldId}" (seed ${typeof seed === 'string' ? seed : seedArg})`)
  console.log(
    `  agent API      ${agentUrl}   (Gmail /gmail/v1, Calendar /calendar/v3, Drive /drive/v3, Docs /v1/documents, Slack /api)`,
  )
  console.log(`  control plane  ${controlUrl}   (Authorization: Bearer ${adminToken}; OpenAPI at /openapi.json)`)
  console.log(`  inspector      ${controlUrl}/ui   (web pages; sign in with the admin token)`)
  const openenv = `${controlUrl}/openenv/${openenvKey}`
  if (openenvKey) console.log(`  OpenEnv        ${openenv}   (base_url for EnvClient; no admin token needed)`)
  console.log(`  users:`)
  // Bot accounts are world users without person tokens; they are listed with their bot token below.
  for (const u of creds.filter((x) => x.googleToken || x.slackUserToken))
    console.log(`    ${u.email.padEnd(28)} google ${u.googleToken ?? '-'}   slack ${u.slackUserToken ?? '-'}`)
  for (const b of running.worlds.botTokens(worldId)) console.log(`    bot ${b.botUserId.padEnd(24)} slack ${b.token}`)
  return await new Promise<number>(() => {})
}

/** The front of `--workers N`: forks this CLI N times as workers and routes requests to them by world id. */
async function serveFront(opts: Omit<FrontOptions, 'script'>, hooks: CliHooks): Promise<number> {
  const script = process.argv[1]!
  let front: Awaited<ReturnType<typeof startFront>>
  try {
    front = await startFront({ ...opts, script, args: ['serve', ...opts.args] })
  } catch (e) {
    return failServe(startError(e, 'of the workers', opts.host))
  }
  console.log(`workspace-gym: ${opts.count} workers behind ${front.agentUrl} (agent) and ${front.controlUrl} (control)`)
  hooks.ready?.()
  const stop = async () => {
    await front.close()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  return await new Promise<number>(() => {})
}

/** Shortest shared secret accepted: 32 characters (at least 128 bits even as hex). */
export const MIN_SECRET_CHARS = 32

/** The deployment's shared secret from `--secret-file` or WSGYM_SECRET, or a message saying why it is refused. */
export function serverSecret(file: string | undefined): { key?: Buffer } | string {
  let text: string | undefined
  try {
    text = file === undefined ? envDefaults.secret : readFileSync(file, 'utf8')
  } catch (e) {
    return `cannot read --secret-file ${file}: ${(e as Error).message.split('\n')[0]}`
  }
  if (text === undefined) return {}
  const key = text.trim()
  const from = file === undefined ? 'WSGYM_SECRET' : `--secret-file ${file}`
  if (key.length < MIN_SECRET_CHARS)
    return `${from} holds ${key.length} characters; a shared secret needs at least ${MIN_SECRET_CHARS}`
  return { key: Buffer.from(key, 'utf8') }
}

/** Whether `host` binds only this machine (the loopback range, `localhost`, `::1`). */
function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}
