/**
 * wsgym trainer CLI:
 *   rollout    collect episodes from an OpenAI-compatible model server through the HTTP gym → JSONL
 *   reference  turn the corpus's reference programs into trajectories through the HTTP gym → JSONL (same format)
 *   export     rollout JSONL → OpenAI / ShareGPT / token-id SFT files
 *   summary    print the per-family table of a rollout JSONL
 *   eval       run a split's tasks with a model (and its adapters): success, pass@k, reward, unsafe rate, steps
 *   launch     prepare a LoRA job directory and run it on a GPU host over ssh/rsync (or --dry-run)
 *   status     follow a launched (detached) job; fetch: copy its results home
 * `node --import tsx trainer/cli.ts <command> --help` lists each command's flags.
 */
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { GymClient, tokenizeChat, tokenizeUrlFor, type ChatOptions } from './http.ts'
import { collectRollouts, formatSummary, selectTasks, summarize } from './rollout.ts'
import { collectReferences, loadCorpusFiles } from './reference.ts'
import {
  EXPORT_FORMATS,
  exportSft,
  llamaFactoryDatasetInfo,
  readRecords,
  TOOL_RESPONSE_JOIN,
  toolsRendered,
  type BadRecord,
  type ChatTokenizer,
  type ExportFormat,
} from './export.ts'
import { OfflineChatTokenizer, readTokenizerDir, sha256 } from './chat-template.ts'
import type { MaskMode, Thinking } from './tokens.ts'
import { fetchJob, jobStatus, launch, shellQuote, type JobMode } from './launch.ts'
import { ADAPTER_NAME, serveAndEvaluate, serveCommand } from './serve-eval.ts'
import { evaluate, formatReports, progressBar, SPLITS, type EvalReport, type Split } from './eval.ts'
import type { RolloutRecord } from './types.ts'

export const DEFAULT_CORPUS = join(dirname(fileURLToPath(import.meta.url)), '..', 'tasks-lite', 'corpus')
/** Where `reference` writes without --out (relative to the working directory; runs/ is git-ignored). */
export const DEFAULT_REFERENCE_OUT = join('runs', 'reference.jsonl')

type Io = { out: (s: string) => void; err: (s: string) => void; env: Record<string, string | undefined>; tty?: boolean }
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
        [--return-tokens]
        [--gym-url URL] [--admin-token T] [--summary-json FILE]
  env: WSGYM_GYM_URL (default http://127.0.0.1:8081), WSGYM_ADMIN_TOKEN (default dev-admin-token),
       OPENAI_BASE_URL (default http://127.0.0.1:8000/v1), OPENAI_API_KEY`,
  reference: `reference [--out FILE (default runs/reference.jsonl)] [--corpus DIR] [--task ID]… [--family F]…
        [--per-family N] [--concurrency N] [--gym-url URL] [--admin-token T] [--system-prompt-file F]`,
  export: `export --in FILE[,FILE…] --out-dir DIR [--format openai,sharegpt,verifiers,tokens] [--all] [--min-reward X]
        [--allow-violations] [--max-invalid-calls N] [--keep-malformed-calls] [--split train|dev|test]… [--family F]…
        [--source model|reference]…
        [--tokenizer DIR [--chat-template FILE] | --tokenize-url URL | --base-url URL [--model M] [--api-key K]]
        [--chat-template-kwargs JSON] [--mask auto|conversation|per-turn] [--thinking strip|keep] [--max-length N]`,
  summary: 'summary --in FILE',
  eval: `eval --model M [--adapter NAME]… --split train|dev|test [--k N] [--samples N] [--base-url URL] [--api-key K]
        [--family F]… [--temperature T] [--max-tokens N] [--max-turns N] [--extra-body JSON] [--concurrency N]
        [--timeout S] [--retries N] [--json FILE] [--out-dir DIR] [--gym-url URL] [--admin-token T]
  --adapter: a LoRA adapter served by the same server under that name (vLLM --lora-modules NAME=PATH); the table
  then compares each adapter with the base model. Temperature defaults to 0 for one sample, 0.7 otherwise.`,
  launch: `launch --data FILE --format openai|sharegpt|tokens --job-dir DIR [--dev-data FILE] [--config FILE]
        [--set key=value]… [--mode train|check|dry] [--host user@host] [--remote-dir DIR] [--ssh-opt OPT]…
        [--python python3] [--detach] [--dry-run] [--eval-split dev|test [--k N] [--gym-url URL] [--admin-token T]]
  --eval-split: after training, serve the base model and the adapter on the host (vLLM, serve.sh) through an ssh
  tunnel and run eval on that split for both (out/eval.json).
  env: WSGYM_TRAIN_HOST, WSGYM_TRAIN_DIR, WSGYM_TRAIN_SSH_OPTS (space-separated)`,
  status: 'status --job-dir DIR [--lines N] [--json]   stage, exit code and output tail of a launched job',
  fetch: "fetch --job-dir DIR   copy a launched job's out/ (adapter, report.json), run.out and train.log home",
}

const num = (v: unknown, name: string): number | undefined => {
  if (v === undefined) return undefined
  const n = Number(v)
  if (!Number.isFinite(n)) throw new Error(`--${name} must be a number, got "${String(v)}"`)
  return n
}
const list = (v: unknown): string[] =>
  ((v as string[] | undefined) ?? [])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean)
const json = (v: unknown, name: string): Record<string, unknown> | undefined => {
  if (v === undefined) return undefined
  try {
    return JSON.parse(String(v)) as Record<string, unknown>
  } catch {
    throw new Error(`--${name} must be JSON`)
  }
}

function gymOf(v: Record<string, unknown>, env: Io['env']): GymClient {
  return new GymClient(
    String(v['gym-url'] ?? env.WSGYM_GYM_URL ?? 'http://127.0.0.1:8081'),
    String(v['admin-token'] ?? env.WSGYM_ADMIN_TOKEN ?? 'dev-admin-token'),
  )
}

/** Writes records to a JSONL file in the order they are handed over. */
function jsonlWriter(path: string) {
  mkdirSync(dirname(path), { recursive: true })
  const stream = createWriteStream(path)
  return {
    write: (r: RolloutRecord) =>
      new Promise<void>((res, rej) => stream.write(JSON.stringify(r) + '\n', (e) => (e ? rej(e) : res()))),
    close: () => new Promise<void>((res) => stream.end(res)),
  }
}

async function rollout(argv: string[], io: Io): Promise<number> {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      ...gymFlags,
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      model: { type: 'string' },
      samples: { type: 'string' },
      'tool-profile': { type: 'string' },
      seed: { type: 'string' },
      'model-seed': { type: 'string' },
      temperature: { type: 'string' },
      'max-tokens': { type: 'string' },
      'max-turns': { type: 'string' },
      timeout: { type: 'string' },
      retries: { type: 'string' },
      'extra-body': { type: 'string' },
      'summary-json': { type: 'string' },
      'return-tokens': { type: 'boolean' },
    },
  })
  if (v.help) return (io.out(HELP.rollout!), 0)
  if (!v.model || !v.out) throw new Error('rollout needs --model and --out')
  const profile = v['tool-profile']
  if (profile !== undefined && profile !== 'rest' && profile !== 'typed')
    throw new Error('--tool-profile must be rest or typed')
  const gym = gymOf(v, io.env)
  const tasks = selectTasks(await gym.tasks(), {
    ids: list(v.task),
    families: list(v.family),
    perFamily: num(v['per-family'], 'per-family'),
  })
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
    returnTokens: Boolean(v['return-tokens']),
  }
  const samples = num(v.samples, 'samples') ?? 1
  io.err(`rollout: ${tasks.length} task(s) × ${samples} sample(s) with ${chat.model} at ${chat.baseUrl}`)
  const w = jsonlWriter(String(v.out))
  let n = 0
  const records = await collectRollouts({
    gym,
    chat,
    tasks,
    samples,
    toolProfile: profile as 'rest' | 'typed' | undefined,
    seed: num(v.seed, 'seed'),
    modelSeed: num(v['model-seed'], 'model-seed'),
    maxTurns: num(v['max-turns'], 'max-turns'),
    concurrency: num(v.concurrency, 'concurrency'),
    systemPrompt: v['system-prompt-file'] ? readFileSync(String(v['system-prompt-file']), 'utf8').trim() : undefined,
    onRecord: async (r) => {
      await w.write(r)
      n++
      io.err(
        `[${n}/${tasks.length * samples}] ${r.taskId}#${r.sample} ${r.verdict ? `reward ${r.verdict.reward} passed ${r.verdict.passed}` : `error: ${r.error}`} (${r.stopReason}, ${r.steps} steps)`,
      )
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
  if (v.help) return (io.out(HELP.reference!), 0)
  const out = String(v.out ?? DEFAULT_REFERENCE_OUT)
  const all = loadCorpusFiles(String(v.corpus ?? DEFAULT_CORPUS))
  const tasks = selectTasks(all, {
    ids: list(v.task),
    families: list(v.family),
    perFamily: num(v['per-family'], 'per-family'),
  })
  io.err(`reference: ${tasks.length} task(s) → ${out}`)
  const w = jsonlWriter(out)
  const records = await collectReferences({
    gym: gymOf(v, io.env),
    tasks,
    concurrency: num(v.concurrency, 'concurrency'),
    systemPrompt: v['system-prompt-file'] ? readFileSync(String(v['system-prompt-file']), 'utf8').trim() : undefined,
    onRecord: async (r) => {
      await w.write(r)
      if (!r.verdict?.passed)
        io.err(`${r.taskId}: reference did not pass (${r.error ?? `reward ${r.verdict?.reward}`})`)
    },
  })
  await w.close()
  io.out(formatSummary(summarize(records)))
  return 0
}

async function exportCmd(argv: string[], io: Io): Promise<number> {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      in: { type: 'string', multiple: true },
      'out-dir': { type: 'string' },
      format: { type: 'string' },
      all: { type: 'boolean' },
      'min-reward': { type: 'string' },
      'allow-violations': { type: 'boolean' },
      'max-invalid-calls': { type: 'string' },
      'keep-malformed-calls': { type: 'boolean' },
      split: { type: 'string', multiple: true },
      family: { type: 'string', multiple: true },
      source: { type: 'string', multiple: true },
      tokenizer: { type: 'string' },
      'chat-template': { type: 'string' },
      'tokenize-url': { type: 'string' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'api-key': { type: 'string' },
      'chat-template-kwargs': { type: 'string' },
      'max-length': { type: 'string' },
      mask: { type: 'string' },
      thinking: { type: 'string' },
      concurrency: { type: 'string' },
      help: { type: 'boolean' },
    },
  })
  if (v.help) return (io.out(HELP.export!), 0)
  const inputs = list(v.in)
  if (!inputs.length || !v['out-dir']) throw new Error('export needs --in and --out-dir')
  const formats = (v.format ? list([v.format]) : ['openai', 'sharegpt']) as ExportFormat[]
  for (const f of formats)
    if (!EXPORT_FORMATS.includes(f)) throw new Error(`unknown format "${f}" (${EXPORT_FORMATS.join(', ')})`)
  const mask = (v.mask ?? 'auto') as MaskMode
  if (!['auto', 'conversation', 'per-turn'].includes(mask))
    throw new Error('--mask must be auto, conversation or per-turn')
  const thinking = (v.thinking ?? 'strip') as Thinking
  if (!['keep', 'strip'].includes(thinking)) throw new Error('--thinking must be keep or strip')
  const bad: BadRecord[] = []
  const records = inputs.flatMap((f) => readRecords(f, bad))
  const kwargs = json(v['chat-template-kwargs'], 'chat-template-kwargs')
  let tokenize: ChatTokenizer | undefined
  let tokenizerInfo: Record<string, unknown> | null = null
  const url = v['tokenize-url'] ?? (v['base-url'] ? tokenizeUrlFor(String(v['base-url'])) : undefined)
  if (formats.includes('tokens')) {
    if (v.tokenizer) {
      const offline = new OfflineChatTokenizer(
        readTokenizerDir(String(v.tokenizer), v['chat-template'] as string | undefined),
        kwargs,
      )
      tokenize = offline.tokenize
      tokenizerInfo = {
        kind: 'offline',
        source: offline.source,
        tokenizerSha256: offline.tokenizerHash,
        templateSha256: offline.templateHash,
      }
    } else if (url) {
      const apiKey = (v['api-key'] as string | undefined) ?? io.env.OPENAI_API_KEY
      tokenize = (messages, tools, addGenerationPrompt) =>
        tokenizeChat(
          String(url),
          { model: v.model as string | undefined, messages, tools, addGenerationPrompt, chatTemplateKwargs: kwargs },
          { apiKey, retries: 2 },
        )
      tokenizerInfo = { kind: 'vllm', url, model: v.model ?? null, tokenizerSha256: null, templateSha256: null }
    } else
      throw new Error(
        'the tokens format needs --tokenizer DIR (offline) or --tokenize-url/--base-url (a vLLM server exposing /tokenize)',
      )
  }
  if (tokenize && records[0] && !(await toolsRendered(tokenize, records[0]))) {
    io.err(
      `export: ${v.tokenizer ?? url} renders the same tokens with and without tools: the chat template ignores \`tools\` (or this vLLM's /tokenize drops it; upgrade vLLM); the token file would lack the tool list`,
    )
    return 1
  }
  const res = await exportSft(records, {
    formats,
    tokenize,
    concurrency: num(v.concurrency, 'concurrency'),
    maxLength: num(v['max-length'], 'max-length'),
    mask,
    thinking,
    filter: {
      passedOnly: !v.all,
      noViolations: !v.all && !v['allow-violations'],
      minReward: num(v['min-reward'], 'min-reward'),
      maxInvalidToolCalls: num(v['max-invalid-calls'], 'max-invalid-calls'),
      keepMalformedCalls: Boolean(v['keep-malformed-calls']),
      splits: list(v.split),
      families: list(v.family),
      sources: list(v.source) as RolloutRecord['source'][],
    },
  })
  const dir = String(v['out-dir'])
  mkdirSync(dir, { recursive: true })
  const files: Record<string, { lines: number; sha256: string }> = {}
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text)
    return sha256(text)
  }
  for (const [fmt, lines] of Object.entries(res.lines)) {
    files[`${fmt}.jsonl`] = {
      lines: lines.length,
      sha256: write(`${fmt}.jsonl`, lines.length ? lines.join('\n') + '\n' : ''),
    }
    io.out(`${join(dir, `${fmt}.jsonl`)}: ${lines.length} example(s)`)
  }
  if (res.lines.sharegpt) write('dataset_info.json', JSON.stringify(llamaFactoryDatasetInfo(), null, 2) + '\n')
  const manifest = {
    inputs: inputs.map((f) => ({ file: f, sha256: sha256(readFileSync(f)) })),
    formats,
    read: res.read + bad.length,
    badRecords: bad,
    kept: res.kept,
    dropped: res.dropped,
    skipped: res.skipped,
    files,
    options: {
      filter: {
        all: Boolean(v.all),
        allowViolations: Boolean(v['allow-violations']),
        keepMalformedCalls: Boolean(v['keep-malformed-calls']),
      },
      thinking,
      mask,
      maxLength: num(v['max-length'], 'max-length') ?? null,
    },
    tokens: res.lines.tokens
      ? { tokenizer: tokenizerInfo, chatTemplateKwargs: kwargs ?? {}, examples: res.lines.tokens.length, ...res.masks }
      : null,
    sharegpt: res.lines.sharegpt
      ? {
          toolResponseJoin: TOOL_RESPONSE_JOIN,
          assistantTextDropped: res.sharegptDroppedText,
          datasetInfo: 'dataset_info.json',
        }
      : null,
  }
  write('manifest.json', JSON.stringify(manifest, null, 2) + '\n')
  io.out(`read ${res.read}, kept ${res.kept}, dropped ${JSON.stringify(res.dropped)}`)
  if (res.lines.tokens)
    io.out(
      `tokens: ${res.masks.conversation} conversation example(s), ${res.masks.perTurn} per-turn example(s) from ${res.masks.recordsPerTurn} record(s)`,
    )
  for (const b of bad) io.err(`bad record ${b.file}:${b.line}${b.taskId ? ` (${b.taskId})` : ''}: ${b.reason}`)
  for (const s of res.skipped) io.err(`${s.format}: skipped ${s.taskId} (record ${s.index}): ${s.reason}`)
  return 0
}

async function evalCmd(argv: string[], io: Io): Promise<number> {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      ...gymFlags,
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      model: { type: 'string' },
      adapter: { type: 'string', multiple: true },
      split: { type: 'string' },
      k: { type: 'string' },
      samples: { type: 'string' },
      temperature: { type: 'string' },
      'max-tokens': { type: 'string' },
      'max-turns': { type: 'string' },
      timeout: { type: 'string' },
      retries: { type: 'string' },
      'extra-body': { type: 'string' },
      json: { type: 'string' },
      'out-dir': { type: 'string' },
    },
  })
  if (v.help) return (io.out(HELP.eval!), 0)
  if (!v.model) throw new Error('eval needs --model')
  const split = String(v.split ?? 'test') as Split
  if (!SPLITS.includes(split)) throw new Error(`--split must be ${SPLITS.join(', ')}`)
  const k = num(v.k, 'k') ?? 1
  const samples = num(v.samples, 'samples') ?? k
  const gym = gymOf(v, io.env)
  const models = [String(v.model), ...list(v.adapter)]
  const reports: EvalReport[] = []
  for (const model of models) {
    const chat: ChatOptions = {
      baseUrl: String(v['base-url'] ?? io.env.OPENAI_BASE_URL ?? 'http://127.0.0.1:8000/v1'),
      apiKey: (v['api-key'] as string | undefined) ?? io.env.OPENAI_API_KEY,
      model,
      temperature: num(v.temperature, 'temperature') ?? (samples === 1 ? 0 : 0.7),
      maxTokens: num(v['max-tokens'], 'max-tokens') ?? 2048,
      timeoutMs: (num(v.timeout, 'timeout') ?? 120) * 1000,
      retries: num(v.retries, 'retries') ?? 4,
      extraBody: json(v['extra-body'], 'extra-body'),
    }
    let shown = -1
    const { report: rep, records } = await evaluate({
      gym,
      chat,
      split,
      k,
      samples,
      families: list(v.family),
      concurrency: num(v.concurrency, 'concurrency'),
      systemPrompt: v['system-prompt-file'] ? readFileSync(String(v['system-prompt-file']), 'utf8').trim() : undefined,
      onRecord: (_r, done, total) => {
        const tenth = Math.floor((10 * done) / total)
        if (io.tty) io.err(`\r${progressBar(done, total, model)}${done === total ? '\n' : ''}`)
        else if (tenth !== shown) io.err(progressBar(done, total, model))
        shown = tenth
      },
    })
    reports.push(rep)
    if (v['out-dir']) {
      mkdirSync(String(v['out-dir']), { recursive: true })
      writeFileSync(
        join(String(v['out-dir']), `rollouts-${model.replace(/[^\w.-]+/g, '_')}.jsonl`),
        records.map((r) => JSON.stringify(r)).join('\n') + '\n',
      )
    }
  }
  io.out(formatReports(reports))
  const doc = JSON.stringify({ split, k, samples, reports }, null, 2) + '\n'
  if (v.json) writeFileSync(String(v.json), doc)
  if (v['out-dir']) writeFileSync(join(String(v['out-dir']), 'eval.json'), doc)
  return 0
}

async function summaryCmd(argv: string[], io: Io): Promise<number> {
  const { values: v } = parseArgs({
    args: argv,
    options: { in: { type: 'string', multiple: true }, help: { type: 'boolean' } },
  })
  if (v.help || !v.in) return (io.out(HELP.summary!), v.help ? 0 : 2)
  const bad: BadRecord[] = []
  io.out(formatSummary(summarize(list(v.in).flatMap((f) => readRecords(f, bad)))))
  for (const b of bad) io.err(`bad record ${b.file}:${b.line}: ${b.reason}`)
  return 0
}

async function launchCmd(argv: string[], io: Io): Promise<number> {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      data: { type: 'string' },
      'dev-data': { type: 'string' },
      mode: { type: 'string' },
      format: { type: 'string' },
      'job-dir': { type: 'string' },
      config: { type: 'string' },
      set: { type: 'string', multiple: true },
      host: { type: 'string' },
      'remote-dir': { type: 'string' },
      'ssh-opt': { type: 'string', multiple: true },
      python: { type: 'string' },
      detach: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      'eval-split': { type: 'string' },
      k: { type: 'string' },
      'gym-url': { type: 'string' },
      'admin-token': { type: 'string' },
      help: { type: 'boolean' },
    },
  })
  if (v.help) return (io.out(HELP.launch!), 0)
  const evalSplit = v['eval-split'] as Split | undefined
  if (evalSplit !== undefined && !SPLITS.includes(evalSplit))
    throw new Error(`--eval-split must be ${SPLITS.join(', ')}`)
  if (!v.data || !v['job-dir'] || !v.format) throw new Error('launch needs --data, --format and --job-dir')
  if (!['openai', 'sharegpt', 'tokens'].includes(String(v.format)))
    throw new Error('--format must be openai, sharegpt or tokens')
  const mode = String(v.mode ?? 'train') as JobMode
  if (!['train', 'check', 'dry'].includes(mode)) throw new Error('--mode must be train, check or dry')
  const sshOpts =
    (v['ssh-opt'] as string[] | undefined) ??
    (io.env.WSGYM_TRAIN_SSH_OPTS ? io.env.WSGYM_TRAIN_SSH_OPTS.split(/\s+/).filter(Boolean) : [])
  await launch(
    {
      data: String(v.data),
      devData: v['dev-data'] as string | undefined,
      mode,
      format: v.format as 'openai',
      jobDir: String(v['job-dir']),
      config: v.config as string | undefined,
      set: v.set as string[] | undefined,
      host: (v.host as string | undefined) ?? io.env.WSGYM_TRAIN_HOST,
      remoteDir: (v['remote-dir'] as string | undefined) ?? io.env.WSGYM_TRAIN_DIR,
      sshOpts,
      python: v.python as string | undefined,
      detach: Boolean(v.detach),
      dryRun: Boolean(v['dry-run']),
    },
    io.out,
  )
  if (evalSplit && (v.host ?? io.env.WSGYM_TRAIN_HOST)) {
    if (v.detach || mode !== 'train')
      io.out(
        '--eval-split runs after a followed train job (not with --detach or another --mode): run `launch` again without them, or eval by hand',
      )
    else if (v['dry-run'])
      io.out(
        `then: ${serveCommand(String(v['job-dir']), 18000).map(shellQuote).join(' ')}; eval ${evalSplit} for the base model and ${ADAPTER_NAME}`,
      )
    else {
      const cfg = JSON.parse(readFileSync(join(String(v['job-dir']), 'config.json'), 'utf8')) as { model: string }
      await serveAndEvaluate({
        jobDir: String(v['job-dir']),
        gym: gymOf(v, io.env),
        split: evalSplit,
        model: cfg.model,
        k: num(v.k, 'k'),
        log: io.out,
      })
    }
  }
  return 0
}

async function statusCmd(argv: string[], io: Io): Promise<number> {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      'job-dir': { type: 'string' },
      lines: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  })
  if (v.help) return (io.out(HELP.status!), 0)
  if (!v['job-dir']) throw new Error('status needs --job-dir')
  const s = await jobStatus(String(v['job-dir']), num(v.lines, 'lines') ?? 20)
  if (v.json) io.out(JSON.stringify(s))
  else
    io.out(
      `state: ${s.state ?? 'not started'}${s.exit !== null ? ` (exit ${s.exit})` : ''}; ${s.running ? 'running' : 'not running'}\n${s.tail}`,
    )
  return 0
}

async function fetchCmd(argv: string[], io: Io): Promise<number> {
  const { values: v } = parseArgs({ args: argv, options: { 'job-dir': { type: 'string' }, help: { type: 'boolean' } } })
  if (v.help) return (io.out(HELP.fetch!), 0)
  if (!v['job-dir']) throw new Error('fetch needs --job-dir')
  await fetchJob(String(v['job-dir']), io.out)
  return 0
}

const commands: Record<string, (argv: string[], io: Io) => Promise<number>> = {
  rollout,
  reference,
  export: exportCmd,
  summary: summaryCmd,
  eval: evalCmd,
  launch: launchCmd,
  status: statusCmd,
  fetch: fetchCmd,
}

/** Runs one command; returns the exit code (errors are printed, not thrown). */
const defaultIo: Io = {
  out: (s) => console.log(s),
  err: (s) => (s.startsWith('\r') ? process.stderr.write(s) : console.error(s)),
  env: process.env,
  tty: Boolean(process.stderr.isTTY),
}

export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
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
  void main(process.argv.slice(2)).then((code) => process.exit(code))
}
