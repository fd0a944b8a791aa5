/**
 * wsgym trainer CLI:
 *   rollout    collect episodes from an OpenAI-compatible model server through the HTTP gym → JSONL
 *   reference  turn the corpus's reference programs into trajectories through the HTTP gym → JSONL (same format)
 *   export     rollout JSONL → OpenAI / ShareGPT / token-id SFT files
 *   summary    print the per-family table of a rollout JSONL
 *   launch     prepare a LoRA job directory and run it on a GPU host over ssh/rsync (or --dry-run)
 * `node --import tsx trainer/cli.ts <command> --help` lists each command's flags.
 */
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { GymClient, tokenizeChat, tokenizeUrlFor, type ChatOptions } from './http.ts'
import { collectRollouts, formatSummary, selectTasks, summarize } from './rollout.ts'
import { collectReferences, loadCorpusFiles } from './reference.ts'
import { exportSft, readRecords, toolsRendered, type ChatTokenizer, type ExportFormat } from './export.ts'
import { launch } from './launch.ts'
import type { RolloutRecord } from './types.ts'

export const DEFAULT_CORPUS = join(dirname(fileURLToPath(import.meta.url)), '..', 'tasks-lite', 'corpus')
/** Where `reference` writes without --out (relative to the working directory; runs/ is git-ignored). */
export const DEFAULT_REFERENCE_OUT = join('runs', 'reference.jsonl')

type Io = { out: (s: string) => void; err: (s: string) => void; env: Record<string, string | undefined> }
type Options = NonNullable<ParseArgsConfig['options']>

const gymFlags = {
  'gym-url': { type: 'string' },
  'admin-token': { type: 'string' },
  task: { type: 'string', multiple: true },
  family: { type: 'string', multiple: true },
  'per-family': { type: 'string' },
  concurrency: { type: 'string' },
  out: { type: 'string' },
  'system-prompt-file': { type: 'string' },
  help: { type: 'boolean' },
} as const satisfies Options

const HELP: Record<string, string> = {
  rollout: `rollout --model M --out FILE [--base-url URL] [--api-key K] [--task ID]… [--family F]… [--per-family N]
        [--samples N] [--tool-profile rest|typed] [--seed N] [--model-seed N] [--temperature T] [--max-tokens N]
        [--max-turns N] [--concurrency N] [--timeout S] [--retries N] [--extra-body JSON] [--system-prompt-file F]
        [--gym-url URL] [--admin-token T] [--summary-json FILE]
  env: WSGYM_GYM_URL (default http://127.0.0.1:8081), WSGYM_ADMIN_TOKEN (default dev-admin-token),
       OPENAI_BASE_URL (default http://127.0.0.1:8000/v1), OPENAI_API_KEY`,
  reference: `reference [--out FILE (default runs/reference.jsonl)] [--corpus DIR] [--task ID]… [--family F]…
        [--per-family N] [--concurrency N] [--gym-url URL] [--admin-token T] [--system-prompt-file F]`,
  export: `export --in FILE[,FILE…] --out-dir DIR [--format openai,sharegpt,tokens] [--all] [--min-reward X]
        [--allow-violations] [--max-invalid-calls N] [--family F]… [--source model|reference]…
        [--tokenize-url URL | --base-url URL] [--model M] [--api-key K] [--chat-template-kwargs JSON] [--max-length N]`,
  summary: 'summary --in FILE',
  launch: `launch --data FILE --format openai|sharegpt|tokens --job-dir DIR [--config FILE] [--set key=value]…
        [--host user@host] [--remote-dir DIR] [--ssh-opt OPT]… [--python python3] [--detach] [--dry-run]
  env: WSGYM_TRAIN_HOST, WSGYM_TRAIN_DIR, WSGYM_TRAIN_SSH_OPTS (space-separated)`,
}

const num = (v: unknown, name: string): number | undefined => {
  if (v === undefined) return undefined
  const n = Number(v)
  if (!Number.isFinite(n)) throw new Error(`--${name} must be a number, got "${String(v)}"`)
  return n
}
const list = (v: unknown): string[] => ((v as string[] | undefined) ?? []).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean)
const json = (v: unknown, name: string): Record<string, unknown> | undefined => {
  if (v === undefined) return undefined
  try { return JSON.parse(String(v)) as Record<string, unknown> } catch { throw new Error(`--${name} must be JSON`) }
}

function gymOf(v: Record<string, unknown>, env: Io['env']): GymClient {
  return new GymClient(String(v['gym-url'] ?? env.WSGYM_GYM_URL ?? 'http://127.0.0.1:8081'), String(v['admin-token'] ?? env.WSGYM_ADMIN_TOKEN ?? 'dev-admin-token'))
}

/** Writes records to a JSONL file in the order they are handed over. */
function jsonlWriter(path: string) {
  mkdirSync(dirname(path), { recursive: true })
  const stream = createWriteStream(path)
  return {
    write: (r: RolloutRecord) => new Promise<void>((res, rej) => stream.write(JSON.stringify(r) + '\n', (e) => (e ? rej(e) : res()))),
    close: () => new Promise<void>((res) => stream.end(res)),
  }
}

async function rollout(argv: string[], io: Io): Promise<number> {
  const { values: v } = parseArgs({ args: argv, options: { ...gymFlags, 'base-url': { type: 'string' }, 'api-key': { type: 'string' }, model: { type: 'string' }, samples: { type: 'string' }, 'tool-profile': { type: 'string' }, seed: { type: 'string' }, 'model-seed': { type: 'string' }, temperature: { type: 'string' }, 'max-tokens': { type: 'string' }, 'max-turns': { type: 'string' }, timeout: { type: 'string' }, retries: { type: 'string' }, 'extra-body': { type: 'string' }, 'summary-json': { type: 'string' } } })
  if (v.help) return io.out(HELP.rollout!), 0
  if (!v.model || !v.out) throw new Error('rollout needs --model and --out')
  const profile = v['tool-profile']
  if (profile !== undefined && profile !== 'rest' && profile !== 'typed') throw new Error('--tool-profile must be rest or typed')
  const gym = gymOf(v, io.env)
  const tasks = selectTasks(await gym.tasks(), { ids: list(v.task), families: list(v.family), perFamily: num(v['per-family'], 'per-family') })
  if (!tasks.length) throw new Error('no task matches the --task/--family filters')
  const chat: ChatOptions = {
    baseUrl: String(v['base-url'] ?? io.env.OPENAI_BASE_URL ?? 'http://127.0.0.1:8000/v1'),
    apiKey: (v['api-key'] as string | undefined) ?? io.env.OPENAI_API_KEY,
    model: String(v.model),
    temperature: num(v.temperature, 'temperature') ?? 0.7,
    maxTokens: num(v['max-tokens'], 'max-tokens') ?? 2048,
    timeoutMs: (num(v.timeout, 'timeout') ?? 120) * 1000,
    retries: num(v.retries, 'retries') ?? 4,
    extraBody: json(v['extra-body'], 'extra-body'),
  }
  const samples = num(v.samples, 'samples') ?? 1
  io.err(`rollout: ${tasks.length} task(s) × ${samples} sample(s) with ${chat.model} at ${chat.baseUrl}`)
  const w = jsonlWriter(String(v.out))
  let n = 0
  const records = await collectRollouts({
    gym, chat, tasks, samples, toolProfile: profile as 'rest' | 'typed' | undefined,
    seed: num(v.seed, 'seed'), modelSeed: num(v['model-seed'], 'model-seed'), maxTurns: num(v['max-turns'], 'max-turns'),
    concurrency: num(v.concurrency, 'concurrency'), systemPrompt: v['system-prompt-file'] ? readFileSync(String(v['system-prompt-file']), 'utf8').trim() : undefined,
    onRecord: async (r) => {
      await w.write(r)
      n++
      io.err(`[${n}/${tasks.length * samples}] ${r.taskId}#${r.sample} ${r.verdict ? `reward ${r.verdict.reward} passed ${r.verdict.passed}` : `error: ${r.error}`} (${r.stopReason}, ${r.steps} steps)`)
    },
  })
  await w.close()
  const s = summarize(records)
  io.out(formatSummary(s))
  if (v['summary-json']) writeFileSync(String(v['summary-json']), JSON.stringify(s, null, 2) + '\n')
  return 0
}

async function reference(argv: string[], io: Io): Promise<number> {
  const { values: v } = parseArgs({ args: argv, options: { ...gymFlags, corpus: { type: 'string' } } })
  if (v.help) return io.out(HELP.reference!), 0
  const out = String(v.out ?? DEFAULT_REFERENCE_OUT)
  const all = loadCorpusFiles(String(v.corpus ?? DEFAULT_CORPUS))
  const tasks = selectTasks(all, { ids: list(v.task), families: list(v.family), perFamily: num(v['per-family'], 'per-family') })
  io.err(`reference: ${tasks.length} task(s) → ${out}`)
  const w = jsonlWriter(out)
  const records = await collectReferences({
    gym: gymOf(v, io.env), tasks, concurrency: num(v.concurrency, 'concurrency'),
    systemPrompt: v['system-prompt-file'] ? readFileSync(String(v['system-prompt-file']), 'utf8').trim() : undefined,
    onRecord: async (r) => {
      await w.write(r)
      if (!r.verdict?.passed) io.err(`${r.taskId}: reference did not pass (${r.error ?? `reward ${r.verdict?.reward}`})`)
    },
  })
  await w.close()
  io.out(formatSummary(summarize(records)))
  return 0
}

async function exportCmd(argv: string[], io: Io): Promise<number> {
  const { values: v } = parseArgs({ args: argv, options: { in: { type: 'string', multiple: true }, 'out-dir': { type: 'string' }, format: { type: 'string' }, all: { type: 'boolean' }, 'min-reward': { type: 'string' }, 'allow-violations': { type: 'boolean' }, 'max-invalid-calls': { type: 'string' }, family: { type: 'string', multiple: true }, source: { type: 'string', multiple: true }, 'tokenize-url': { type: 'string' }, 'base-url': { type: 'string' }, model: { type: 'string' }, 'api-key': { type: 'string' }, 'chat-template-kwargs': { type: 'string' }, 'max-length': { type: 'string' }, concurrency: { type: 'string' }, help: { type: 'boolean' } } })
  if (v.help) return io.out(HELP.export!), 0
  const inputs = list(v.in)
  if (!inputs.length || !v['out-dir']) throw new Error('export needs --in and --out-dir')
  const formats = (v.format ? list([v.format]) : ['openai', 'sharegpt']) as ExportFormat[]
  for (const f of formats) if (!['openai', 'sharegpt', 'tokens'].includes(f)) throw new Error(`unknown format "${f}"`)
  const records = inputs.flatMap(readRecords)
  let tokenize: ChatTokenizer | undefined
  const url = v['tokenize-url'] ?? (v['base-url'] ? tokenizeUrlFor(String(v['base-url'])) : undefined)
  if (formats.includes('tokens')) {
    if (!url) throw new Error('the tokens format needs --tokenize-url or --base-url (a vLLM server exposing /tokenize)')
    const kwargs = json(v['chat-template-kwargs'], 'chat-template-kwargs')
    const apiKey = (v['api-key'] as string | undefined) ?? io.env.OPENAI_API_KEY
    tokenize = (messages, tools, addGenerationPrompt) => tokenizeChat(String(url), { model: v.model as string | undefined, messages, tools, addGenerationPrompt, chatTemplateKwargs: kwargs }, { apiKey, retries: 2 })
  }
  if (tokenize && records[0] && !(await toolsRendered(tokenize, records[0]))) {
    io.err(`export: ${url} renders the same tokens with and without tools: this server's /tokenize ignores \`tools\` (upgrade vLLM); the token file would lack the tool list`)
    return 1
  }
  const res = await exportSft(records, {
    formats, tokenize, concurrency: num(v.concurrency, 'concurrency'), maxLength: num(v['max-length'], 'max-length'),
    filter: { passedOnly: !v.all, noViolations: !v.all && !v['allow-violations'], minReward: num(v['min-reward'], 'min-reward'), maxInvalidToolCalls: num(v['max-invalid-calls'], 'max-invalid-calls'), families: list(v.family), sources: list(v.source) as RolloutRecord['source'][] },
  })
  const dir = String(v['out-dir'])
  mkdirSync(dir, { recursive: true })
  for (const [fmt, lines] of Object.entries(res.lines)) {
    writeFileSync(join(dir, `${fmt}.jsonl`), lines.length ? lines.join('\n') + '\n' : '')
    io.out(`${join(dir, `${fmt}.jsonl`)}: ${lines.length} example(s)`)
  }
  io.out(`read ${res.read}, kept ${res.kept}, dropped ${JSON.stringify(res.dropped)}`)
  for (const s of res.tokenSkipped) io.err(`tokens: skipped ${s.taskId} (record ${s.index}): ${s.reason}`)
  return 0
}

async function summaryCmd(argv: string[], io: Io): Promise<number> {
  const { values: v } = parseArgs({ args: argv, options: { in: { type: 'string', multiple: true }, help: { type: 'boolean' } } })
  if (v.help || !v.in) return io.out(HELP.summary!), v.help ? 0 : 2
  io.out(formatSummary(summarize(list(v.in).flatMap(readRecords))))
  return 0
}

async function launchCmd(argv: string[], io: Io): Promise<number> {
  const { values: v } = parseArgs({ args: argv, options: { data: { type: 'string' }, format: { type: 'string' }, 'job-dir': { type: 'string' }, config: { type: 'string' }, set: { type: 'string', multiple: true }, host: { type: 'string' }, 'remote-dir': { type: 'string' }, 'ssh-opt': { type: 'string', multiple: true }, python: { type: 'string' }, detach: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, help: { type: 'boolean' } } })
  if (v.help) return io.out(HELP.launch!), 0
  if (!v.data || !v['job-dir'] || !v.format) throw new Error('launch needs --data, --format and --job-dir')
  if (!['openai', 'sharegpt', 'tokens'].includes(String(v.format))) throw new Error('--format must be openai, sharegpt or tokens')
  const sshOpts = (v['ssh-opt'] as string[] | undefined) ?? (io.env.WSGYM_TRAIN_SSH_OPTS ? io.env.WSGYM_TRAIN_SSH_OPTS.split(/\s+/).filter(Boolean) : [])
  await launch({
    data: String(v.data), format: v.format as 'openai', jobDir: String(v['job-dir']), config: v.config as string | undefined, set: v.set as string[] | undefined,
    host: (v.host as string | undefined) ?? io.env.WSGYM_TRAIN_HOST, remoteDir: (v['remote-dir'] as string | undefined) ?? io.env.WSGYM_TRAIN_DIR,
    sshOpts, python: v.python as string | undefined, detach: Boolean(v.detach), dryRun: Boolean(v['dry-run']),
  }, io.out)
  return 0
}

const commands: Record<string, (argv: string[], io: Io) => Promise<number>> = { rollout, reference, export: exportCmd, summary: summaryCmd, launch: launchCmd }

/** Runs one command; returns the exit code (errors are printed, not thrown). */
export async function main(argv: string[], io: Io = { out: (s) => console.log(s), err: (s) => console.error(s), env: process.env }): Promise<number> {
  const [cmd, ...rest] = argv
  const run = cmd ? commands[cmd] : undefined
  if (!run) {
    io.err(`usage: trainer/cli.ts <${Object.keys(commands).join('|')}> [--help]\n\n${Object.values(HELP).join('\n\n')}`)
    return 2
  }
  try {
    return await run(rest, io)
  } catch (e) {
    io.err(`${cmd}: ${(e as Error).message}`)
    return 1
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then((code) => process.exit(code))
}
