/**
 * The LoRA launcher end to end against a real OpenSSH server on loopback: the test starts its own sshd on a free
 * port with a temporary host key and an authorized client key, launches jobs into a temporary "remote" folder over
 * ssh + rsync, follows a detached one with `status`, brings results home with `fetch`, and watches the preflight
 * refuse a host without a GPU. The job runs the script's `--check` and, where the remote python3 has torch, a CPU
 * dry step with a tiny randomly initialised model. Skipped (with the reason) where sshd, ssh or rsync is missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, connect } from 'node:net'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { exportSft } from '../../trainer/export.ts'
import { OfflineChatTokenizer } from '../../trainer/chat-template.ts'
import { launch, readJobRecord } from '../../trainer/launch.ts'
import { main } from '../../trainer/cli.ts'
import type { RolloutRecord } from '../../trainer/types.ts'
import { qwen3Files } from './qwen.ts'
import { tempDirs } from '../support/tmp-dirs.ts'

const tempDir = tempDirs()

const SSHD = ['/usr/sbin/sshd', '/usr/bin/sshd'].find((p) => existsSync(p))
const have = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0
const missing = !SSHD ? 'sshd' : ['ssh', 'ssh-keygen', 'rsync', 'python3'].find((c) => !have(c))
if (missing)
  console.log(
    `tests/trainer/ssh.test.ts skipped: no ${missing} on this machine (Debian: openssh-server, openssh-client, rsync)`,
  )

const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => ok(port))
    })
  })
const accepts = (port: number) =>
  new Promise<boolean>((ok) => {
    const c = connect(port, '127.0.0.1', () => {
      c.destroy()
      ok(true)
    })
    c.on('error', () => ok(false))
  })

let dir: string
let sshd: ChildProcess | undefined
let sshOpts: string[]
const host = `${userInfo().username}@127.0.0.1`

beforeAll(async () => {
  if (missing) return
  dir = tempDir('trainer-ssh-')
  const keys = join(dir, 'keys')
  mkdirSync(keys, { mode: 0o700 })
  for (const k of ['host', 'client']) spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(keys, k)])
  writeFileSync(join(keys, 'authorized_keys'), readFileSync(join(keys, 'client.pub')), { mode: 0o600 })
  const port = await freePort()
  const config = join(dir, 'sshd_config')
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(keys, 'host')}`,
      `AuthorizedKeysFile ${join(keys, 'authorized_keys')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'StrictModes no',
      'UsePAM no',
      'PrintMotd no',
      'LogLevel ERROR',
    ].join('\n') + '\n',
  )
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true }) // privilege separation directory
  sshd = spawn(SSHD!, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] })
  let log = ''
  sshd.stderr!.on('data', (d: Buffer) => {
    log += d.toString()
  })
  for (let i = 0; i < 100 && !(await accepts(port)); i++) await new Promise((r) => setTimeout(r, 100))
  if (!(await accepts(port))) throw new Error(`sshd did not start: ${log}`)
  sshOpts = [
    '-p',
    String(port),
    '-i',
    join(keys, 'client'),
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'BatchMode=yes',
    '-o',
    'LogLevel=ERROR',
  ]
}, 60_000)
afterAll(() => {
  sshd?.kill()
})

// The "remote" is this machine: a python3 with torch here (Debian's python3-torch installs for /usr/bin/python3) runs
// the dry step there.
const torchPython = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import torch']).status === 0)

/** A tokens export (the real Qwen3 template, offline) of a small tool-calling trajectory. */
async function tokensFile(): Promise<string> {
  const record = {
    index: 0,
    source: 'reference',
    taskId: 'gmail-x-1',
    family: 'gmail-x',
    sample: 0,
    seed: null,
    modelSeed: null,
    model: 'reference',
    toolProfile: 'rest',
    episodeId: 'ep1',
    tools: [
      { type: 'function', function: { name: 'http_request', parameters: { type: 'object' } } },
      { type: 'function', function: { name: 'done', parameters: { type: 'object' } } },
    ],
    messages: [
      { role: 'system', content: 'You complete office tasks.' },
      { role: 'user', content: 'Task: list my labels' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'a',
            type: 'function',
            function: { name: 'http_request', arguments: '{"method":"GET","path":"/gmail/v1/users/me/labels"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: '{"status":200,"body":{"labels":[{"id":"INBOX"}]}}' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'b', type: 'function', function: { name: 'done', arguments: '{"summary":"INBOX"}' } }],
      },
      { role: 'tool', tool_call_id: 'b', content: 'ok' },
    ],
    verdict: { reward: 1, passed: true, violations: [], metrics: {}, checks: [] },
    steps: 2,
    turns: 2,
    invalidToolCalls: 0,
    stopReason: 'terminated',
    error: null,
    timings: { totalMs: 0, resetMs: 0, modelMs: 0, stepMs: 0, verifyMs: 0 },
    usage: null,
  } as RolloutRecord
  const res = await exportSft([record], {
    formats: ['tokens'],
    tokenize: new OfflineChatTokenizer(qwen3Files(), { enable_thinking: false }).tokenize,
  })
  const p = join(dir, 'tokens.jsonl')
  writeFileSync(p, res.lines.tokens!.join('\n') + '\n')
  return p
}

describe.skipIf(Boolean(missing))('LoRA launcher over a real sshd on loopback', () => {
  it('ships a job, runs its check and a CPU dry step, and brings the results home', async () => {
    const data = await tokensFile()
    const job = join(dir, 'jobs', 'dry-1')
    const logs: string[] = []
    const plan = await launch(
      {
        data,
        devData: data,
        format: 'tokens',
        jobDir: job,
        host,
        remoteDir: join(dir, 'remote'),
        sshOpts,
        mode: 'dry',
        python: torchPython,
      },
      (s) => logs.push(s),
    )
    expect(plan.remote).toBe(join(dir, 'remote', 'dry-1'))
    // The remote folder got the job, the job ran, and fetch brought back its output.
    expect(existsSync(join(dir, 'remote', 'dry-1', 'train_lora.py'))).toBe(true)
    expect(readFileSync(join(job, 'job.exit'), 'utf8').trim()).toBe('0')
    const out = readFileSync(join(job, 'run.out'), 'utf8')
    const check = JSON.parse(out.split('\n').find((l) => l.startsWith('{"ok": true, "format": "tokens"'))!)
    // Qwen3's template: one example (row) per assistant turn.
    expect(check).toMatchObject({ train: { rows: 2, kept: 2, examples: 2 }, dev: { kept: 2 }, drop_fraction: 0 })
    if (torchPython) {
      const dry = JSON.parse(readFileSync(join(job, 'out', 'dry', 'dry.json'), 'utf8'))
      expect(dry).toMatchObject({ ok: true, reload_same_logits: true, examples: 2 })
      expect(dry.loss_after).toBeLessThan(dry.loss_before)
      expect(dry.labelled_tokens).toBeGreaterThan(0)
    } else {
      expect(out).toContain('dry step skipped: python3 has no torch')
    }
    expect(readJobRecord(job)).toMatchObject({ host, mode: 'dry', detach: false })
  }, 300_000)

  it('follows a detached job with status and fetches it when it is done', async () => {
    const data = await tokensFile()
    const job = join(dir, 'jobs', 'check-1')
    const io = (sink: string[]) => ({ out: (s: string) => sink.push(s), err: (s: string) => sink.push(s), env: {} })
    const logs: string[] = []
    expect(
      await main(
        [
          'launch',
          '--data',
          data,
          '--format',
          'tokens',
          '--job-dir',
          job,
          '--host',
          host,
          '--remote-dir',
          join(dir, 'remote'),
          ...sshOpts.map((o) => `--ssh-opt=${o}`),
          '--mode',
          'check',
          '--detach',
        ],
        io(logs),
      ),
      logs.join('\n'),
    ).toBe(0)
    expect(logs.join('\n')).toContain(`status --job-dir ${job}`)
    let status: { state: string | null; exit: number | null; running: boolean; tail: string } | undefined
    for (let i = 0; i < 300; i++) {
      const out: string[] = []
      expect(await main(['status', '--job-dir', job, '--json'], io(out))).toBe(0)
      status = JSON.parse(out[0]!)
      if (status!.exit !== null) break
      await new Promise((r) => setTimeout(r, 200))
    }
    expect(status).toMatchObject({ state: 'done', exit: 0, running: false })
    expect(status!.tail).toContain('== check')
    expect(existsSync(join(job, 'run.out'))).toBe(false)
    expect(await main(['fetch', '--job-dir', job], io([]))).toBe(0)
    expect(readFileSync(join(job, 'run.out'), 'utf8')).toContain('"drop_fraction": 0.0')
  }, 300_000)

  it('refuses to train on a host without a GPU, with the reason, before installing anything', async () => {
    const data = await tokensFile()
    const job = join(dir, 'jobs', 'train-1')
    // (The hub check is skipped: this test reaches no address outside loopback.)
    await expect(
      launch(
        {
          data,
          format: 'tokens',
          jobDir: job,
          host,
          remoteDir: join(dir, 'remote'),
          sshOpts,
          set: ['preflight.skip=[hub]', 'preflight.min_free_gb=0'],
        },
        () => undefined,
      ),
    ).rejects.toThrow('command failed with exit code 4')
    const remote = join(dir, 'remote', 'train-1')
    const out = readFileSync(join(remote, 'run.out'), 'utf8')
    if (have('nvidia-smi')) return
    expect(out).toContain('preflight: refusing: gpu: no nvidia-smi')
    expect(readFileSync(join(remote, 'job.state'), 'utf8').trim()).toBe('failed (4)')
    expect(existsSync(join(remote, '.venv'))).toBe(false)
  }, 120_000)
})
