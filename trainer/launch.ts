/**
 * LoRA launcher: prepares a job directory (data, config, script, pinned requirements, run.sh) and runs it on a
 * remote GPU host with rsync + ssh, or only prints the commands (`dryRun`). Not yet run on a GPU (trainer/README.md).
 */
import { spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import YAML from 'yaml'

export const LORA_DIR = join(dirname(fileURLToPath(import.meta.url)), 'lora')

export type LaunchOptions = {
  /** Exported SFT data (openai, sharegpt or tokens JSONL). */
  data: string
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
export function jobConfig(opts: Pick<LaunchOptions, 'config' | 'set' | 'format'>): Record<string, unknown> {
  const path = opts.config ?? join(LORA_DIR, 'config.yaml')
  const text = readFileSync(path, 'utf8')
  const cfg = (path.endsWith('.json') ? JSON.parse(text) : YAML.parse(text)) as Record<string, unknown>
  setPath(cfg, 'data.path', 'data/train.jsonl')
  setPath(cfg, 'data.format', opts.format)
  for (const s of opts.set ?? []) {
    const eq = s.indexOf('=')
    if (eq <= 0) throw new Error(`--set needs key=value, got "${s}"`)
    setPath(cfg, s.slice(0, eq), YAML.parse(s.slice(eq + 1)))
  }
  return cfg
}

const RUN_SH = (python: string) => `#!/usr/bin/env bash
# Runs one LoRA job on the GPU host: a virtualenv with the pinned requirements, then training.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -d .venv ]; then ${python} -m venv .venv; fi
. .venv/bin/activate
pip install --quiet --upgrade pip
pip install --quiet -r requirements.txt
python train_lora.py --config config.json --check
python train_lora.py --config config.json 2>&1 | tee train.log
`

/** Writes the job directory: data/train.jsonl, config.json, train_lora.py, requirements.txt, run.sh. */
export function prepareJob(opts: LaunchOptions): { jobDir: string; files: string[] } {
  if (!existsSync(opts.data)) throw new Error(`no data file at ${opts.data}`)
  const jobDir = resolve(opts.jobDir)
  mkdirSync(join(jobDir, 'data'), { recursive: true })
  copyFileSync(opts.data, join(jobDir, 'data', 'train.jsonl'))
  writeFileSync(join(jobDir, 'config.json'), JSON.stringify(jobConfig(opts), null, 2) + '\n')
  copyFileSync(join(LORA_DIR, 'train_lora.py'), join(jobDir, 'train_lora.py'))
  copyFileSync(join(LORA_DIR, 'requirements.txt'), join(jobDir, 'requirements.txt'))
  writeFileSync(join(jobDir, 'run.sh'), RUN_SH(opts.python ?? 'python3'))
  chmodSync(join(jobDir, 'run.sh'), 0o755)
  return { jobDir, files: ['config.json', 'data/train.jsonl', 'requirements.txt', 'run.sh', 'train_lora.py'] }
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
  if (opts.detach) commands.push([...ssh, opts.host, `cd ${q(remote)} && nohup bash run.sh > run.out 2>&1 < /dev/null & echo started`])
  else {
    commands.push([...ssh, opts.host, `cd ${q(remote)} && bash run.sh`])
    commands.push(['rsync', '-az', '-e', rsh, `${opts.host}:${remote}/out/`, `${jobDir}/out/`])
  }
  return { jobDir, name, remote, commands }
}

/** POSIX shell quoting for printing a command exactly. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`
}
export const shellJoin = (argv: string[]) => argv.map(shellQuote).join(' ')

/** Prepares the job, then prints (dry run) or runs each command in turn, stopping at the first failure. */
export async function launch(opts: LaunchOptions & { dryRun?: boolean }, log: (s: string) => void = console.log): Promise<Plan> {
  const prepared = prepareJob(opts)
  log(`job directory: ${prepared.jobDir} (${prepared.files.join(', ')})`)
  const plan = planJob(opts)
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
  if (opts.detach && !opts.dryRun) log(`follow: ${shellJoin(['ssh', ...(opts.sshOpts ?? []), opts.host, `tail -f ${plan.remote}/run.out`])}`)
  return plan
}
