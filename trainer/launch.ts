/**
 * LoRA launcher: prepares a job directory (data, config, scripts, pinned requirements, run.sh) and runs it on a
 * remote GPU host with rsync + ssh, or only prints the commands (`dryRun`); `jobStatus` and `fetchJob` follow a
 * detached job (the host, remote folder and ssh options are kept in the job's job.json). Not yet run on a GPU
 * (trainer/README.md); tests/trainer/ssh.test.ts runs it end to end against a real sshd on loopback.
 */
import { spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import YAML from 'yaml'
import { SERVE_SH } from './serve-eval.ts'

export const LORA_DIR = join(dirname(fileURLToPath(import.meta.url)), 'lora')

export type LaunchOptions = {
  /** Exported SFT data (openai, sharegpt or tokens JSONL): the train split. */
  data: string
  /** The dev split in the same format (eval loss during training). */
  devData?: string
  /** train (default): preflight, install, check, train; check: preflight + check; dry: check + a CPU dry step. */
  mode?: JobMode
  format: 'openai' | 'sharegpt' | 'tokens'
  /** Base config (YAML or JSON); default trainer/lora/config.yaml. */
  config?: string
  /** `key.path=value` overrides (value parsed as YAML: numbers, booleans, lists). */
  set?: string[]
  /** Local job directory to create. */
  jobDir: string
  /** ssh destination (`user@host`); required unless only preparing. */
  host?: string
  /** Parent folder of jobs on the host (relative paths are under the remote home). */
  remoteDir?: string
  /** Extra ssh options, e.g. ['-p', '2222', '-i', '~/.ssh/h100']. */
  sshOpts?: string[]
  /** Python used on the host to create the job's virtualenv. */
  python?: string
  /** Start the job with nohup and return at once (default: follow it, then fetch the adapter). */
  detach?: boolean
}

export type JobMode = 'train' | 'check' | 'dry'

export type Plan = { jobDir: string; name: string; remote: string | null; commands: string[][] }

/** Sets `a.b.c` in a nested object. */
function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.')
  let cur = obj
  for (const k of keys.slice(0, -1)) {
    if (!cur[k] || typeof cur[k] !== 'object') cur[k] = {}
    cur = cur[k] as Record<string, unknown>
  }
  cur[keys[keys.length - 1]!] = value
}

/** The job's config: the base config, the data location and format, then the overrides. */
export function jobConfig(opts: Pick<LaunchOptions, 'config' | 'set' | 'format' | 'devData'>): Record<string, unknown> {
  const path = opts.config ?? join(LORA_DIR, 'config.yaml')
  const text = readFileSync(path, 'utf8')
  const cfg = (path.endsWith('.json') ? JSON.parse(text) : YAML.parse(text)) as Record<string, unknown>
  setPath(cfg, 'data.path', 'data/train.jsonl')
  setPath(cfg, 'data.dev_path', opts.devData ? 'data/dev.jsonl' : null)
  setPath(cfg, 'data.format', opts.format)
  for (const s of opts.set ?? []) {
    const eq = s.indexOf('=')
    if (eq <= 0) throw new Error(`--set needs key=value, got "${s}"`)
    setPath(cfg, s.slice(0, eq), YAML.parse(s.slice(eq + 1)))
  }
  return cfg
}

const RUN_SH = (python: string) => `#!/usr/bin/env bash
# One LoRA job: bash run.sh [train|check|dry]. Stages go to job.state, the exit code to job.exit, output to run.out.
set -euo pipefail
cd "$(dirname "$0")"
MODE="\${1:-train}"
PY=${python}
exec > >(tee -a run.out) 2>&1
echo $$ > job.pid
rm -f job.exit
stage() { echo "$1" > job.state; echo "== $1"; }
trap 'code=$?; echo $code > job.exit; if [ $code = 0 ]; then stage done; else stage "failed ($code)"; fi' EXIT
stage preflight
"$PY" preflight.py --config config.json --mode "$MODE"
if [ "$MODE" = train ]; then
  stage install
  if [ ! -d .venv ]; then "$PY" -m venv .venv; fi
  . .venv/bin/activate
  PY=python
  pip install --quiet --upgrade pip
  pip install --quiet -r requirements.txt
fi
stage check
"$PY" train_lora.py --config config.json --check
if [ "$MODE" = dry ]; then
  if "$PY" -c 'import torch' 2>/dev/null; then
    stage dry-step
    "$PY" train_lora.py --config config.json --dry-step
  else
    echo "dry step skipped: $PY has no torch"
  fi
fi
if [ "$MODE" = train ]; then
  stage train
  "$PY" train_lora.py --config config.json 2>&1 | tee -a train.log
fi
`

/** Writes the job directory: data/train.jsonl, config.json, train_lora.py, requirements.txt, run.sh. */
export function prepareJob(opts: LaunchOptions): { jobDir: string; files: string[] } {
  if (!existsSync(opts.data)) throw new Error(`no data file at ${opts.data}`)
  const jobDir = resolve(opts.jobDir)
  mkdirSync(join(jobDir, 'data'), { recursive: true })
  copyFileSync(opts.data, join(jobDir, 'data', 'train.jsonl'))
  if (opts.devData) {
    if (!existsSync(opts.devData)) throw new Error(`no dev data file at ${opts.devData}`)
    copyFileSync(opts.devData, join(jobDir, 'data', 'dev.jsonl'))
  }
  writeFileSync(join(jobDir, 'config.json'), JSON.stringify(jobConfig(opts), null, 2) + '\n')
  for (const f of ['train_lora.py', 'preflight.py', 'requirements.txt', 'requirements-serve.txt'])
    copyFileSync(join(LORA_DIR, f), join(jobDir, f))
  writeFileSync(join(jobDir, 'run.sh'), RUN_SH(opts.python ?? 'python3'))
  writeFileSync(join(jobDir, 'serve.sh'), SERVE_SH(opts.python ?? 'python3'))
  chmodSync(join(jobDir, 'run.sh'), 0o755)
  chmodSync(join(jobDir, 'serve.sh'), 0o755)
  const files = [
    'config.json',
    'data/train.jsonl',
    ...(opts.devData ? ['data/dev.jsonl'] : []),
    'preflight.py',
    'requirements-serve.txt',
    'requirements.txt',
    'run.sh',
    'serve.sh',
    'train_lora.py',
  ]
  return { jobDir, files }
}

/** The commands that ship, run and fetch a prepared job (argv arrays; nothing runs through a local shell). */
export function planJob(opts: LaunchOptions): Plan {
  const jobDir = resolve(opts.jobDir)
  const name = jobDir.split(/[\\/]/).pop()!
  if (!opts.host) return { jobDir, name, remote: null, commands: [] }
  const remote = `${(opts.remoteDir ?? 'wsgym-jobs').replace(/\/+$/, '')}/${name}`
  const ssh = ['ssh', ...(opts.sshOpts ?? [])]
  const rsh = shellJoin(ssh)
  // A leading ~/ stays unquoted so the remote shell expands it.
  const q = (p: string) => (p.startsWith('~/') ? `~/${shellQuote(p.slice(2))}` : shellQuote(p))
  const commands: string[][] = [
    [...ssh, opts.host, `mkdir -p ${q(remote)}`],
    ['rsync', '-az', '--exclude', 'out/', '-e', rsh, `${jobDir}/`, `${opts.host}:${remote}/`],
  ]
  const mode = opts.mode ?? 'train'
  if (opts.detach)
    commands.push([
      ...ssh,
      opts.host,
      `cd ${q(remote)} && nohup bash run.sh ${mode} > /dev/null 2>&1 < /dev/null & echo started`,
    ])
  else {
    commands.push([...ssh, opts.host, `cd ${q(remote)} && bash run.sh ${mode}`])
    commands.push(fetchCommand(rsh, opts.host, remote, jobDir))
  }
  return { jobDir, name, remote, commands }
}

/** Brings a job's results home: out/ (adapter, report.json), run.out, train.log, job.state, job.exit. */
function fetchCommand(rsh: string, host: string, remote: string, jobDir: string): string[] {
  return ['rsync', '-az', '--exclude', '.venv/', '--exclude', 'data/', '-e', rsh, `${host}:${remote}/`, `${jobDir}/`]
}

/** Where a launched job lives, kept in its job directory so `status` and `fetch` need only `--job-dir`. */
export type JobRecord = { host: string; remote: string; sshOpts: string[]; mode: JobMode; detach: boolean }

export function readJobRecord(jobDir: string): JobRecord {
  const p = join(resolve(jobDir), 'job.json')
  if (!existsSync(p)) throw new Error(`${p} not found: was this job launched with --host?`)
  return JSON.parse(readFileSync(p, 'utf8')) as JobRecord
}

const runArgv = (argv: string[]) =>
  new Promise<{ code: number; stdout: string }>((res, rej) => {
    const p = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] })
    let stdout = ''
    p.stdout.on('data', (d: Buffer) => {
      stdout += d.toString('utf8')
    })
    p.on('error', rej)
    p.on('exit', (c) => res({ code: c ?? 1, stdout }))
  })

export type JobStatus = { state: string | null; exit: number | null; running: boolean; tail: string }

/** A launched job's stage, exit code (once finished), whether its process is alive, and the end of run.out. */
export async function jobStatus(jobDir: string, lines = 20): Promise<JobStatus> {
  const j = readJobRecord(jobDir)
  const q = j.remote.startsWith('~/') ? `~/${shellQuote(j.remote.slice(2))}` : shellQuote(j.remote)
  const script =
    `cd ${q} && echo "state=$(cat job.state 2>/dev/null)" && echo "exit=$(cat job.exit 2>/dev/null)" && ` +
    `(kill -0 "$(cat job.pid 2>/dev/null)" 2>/dev/null && echo running=yes || echo running=no) && echo --- && tail -n ${lines} run.out 2>/dev/null; true`
  const { code, stdout } = await runArgv(['ssh', ...j.sshOpts, j.host, script])
  if (code !== 0) throw new Error(`ssh ${j.host} failed with exit code ${code}`)
  const [head, ...rest] = stdout.split('\n---\n')
  const kv = Object.fromEntries(
    (head ?? '').split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  )
  const exit = kv.exit ? Number(kv.exit) : null
  return {
    state: kv.state || null,
    exit: Number.isFinite(exit) ? exit : null,
    running: kv.running === 'yes',
    tail: rest.join('\n---\n'),
  }
}

/** Copies a launched job's results into its local directory (see fetchCommand). */
export async function fetchJob(jobDir: string, log: (s: string) => void = console.log): Promise<void> {
  const j = readJobRecord(jobDir)
  const argv = fetchCommand(shellJoin(['ssh', ...j.sshOpts]), j.host, j.remote, resolve(jobDir))
  log(`$ ${shellJoin(argv)}`)
  const { code } = await runArgv(argv)
  if (code !== 0) throw new Error(`command failed with exit code ${code}: ${shellJoin(argv)}`)
}

/** POSIX shell quoting for printing a command exactly. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`
}
export const shellJoin = (argv: string[]) => argv.map(shellQuote).join(' ')

/** Prepares the job, then prints (dry run) or runs each command in turn, stopping at the first failure. */
export async function launch(
  opts: LaunchOptions & { dryRun?: boolean },
  log: (s: string) => void = console.log,
): Promise<Plan> {
  const prepared = prepareJob(opts)
  log(`job directory: ${prepared.jobDir} (${prepared.files.join(', ')})`)
  const plan = planJob(opts)
  if (opts.host && plan.remote) {
    const rec: JobRecord = {
      host: opts.host,
      remote: plan.remote,
      sshOpts: opts.sshOpts ?? [],
      mode: opts.mode ?? 'train',
      detach: Boolean(opts.detach),
    }
    writeFileSync(join(prepared.jobDir, 'job.json'), JSON.stringify(rec, null, 2) + '\n')
  }
  if (!opts.host) {
    log('no --host (or WSGYM_TRAIN_HOST): job prepared only; run it with `bash run.sh` on a GPU machine')
    return plan
  }
  for (const argv of plan.commands) {
    log(`${opts.dryRun ? '' : '$ '}${shellJoin(argv)}`)
    if (opts.dryRun) continue
    const code = await new Promise<number>((res, rej) => {
      const p = spawn(argv[0]!, argv.slice(1), { stdio: 'inherit' })
      p.on('error', rej)
      p.on('exit', (c) => res(c ?? 1))
    })
    if (code !== 0) throw new Error(`command failed with exit code ${code}: ${shellJoin(argv)}`)
  }
  if (opts.detach && !opts.dryRun)
    log(
      `follow: trainer/cli.ts status --job-dir ${prepared.jobDir}; results: trainer/cli.ts fetch --job-dir ${prepared.jobDir}`,
    )
  return plan
}
