import { afterEach, describe, expect, it } from 'vitest'
import { execFile, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { LORA_DIR, launch, planJob, prepareJob } from '../../trainer/launch.ts'
import { toOpenAI, toShareGPT } from '../../trainer/export.ts'
import { main } from '../../trainer/cli.ts'
import type { RolloutRecord } from '../../trainer/types.ts'
import { tempDirs } from '../support/tmp-dirs.ts'

const tempDir = tempDirs()

const hasPython = spawnSync('python3', ['--version']).status === 0

const record: RolloutRecord = {
  index: 0,
  source: 'model',
  taskId: 't-1',
  family: 't',
  sample: 0,
  seed: null,
  modelSeed: null,
  model: 'm',
  toolProfile: 'rest',
  episodeId: 'ep1',
  tools: [
    { type: 'function', function: { name: 'http_request', parameters: { type: 'object' } } },
    { type: 'function', function: { name: 'done', parameters: { type: 'object' } } },
  ],
  messages: [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'Task: do it' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'a', type: 'function', function: { name: 'http_request', arguments: '{"method":"GET","path":"/a"}' } },
        { id: 'b', type: 'function', function: { name: 'http_request', arguments: '{"method":"GET","path":"/b"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'a', content: '{"status":200}' },
    { role: 'tool', tool_call_id: 'b', content: '{"status":404}' },
    { role: 'assistant', content: 'Done.' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'done', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'c', content: 'ok' },
  ],
  verdict: { reward: 1, passed: true, violations: [], metrics: {}, checks: [] },
  steps: 3,
  turns: 3,
  invalidToolCalls: 0,
  stopReason: 'terminated',
  error: null,
  timings: { totalMs: 0, resetMs: 0, modelMs: 0, stepMs: 0, verifyMs: 0 },
  usage: null,
}

function dataFiles() {
  const dir = tempDir('trainer-launch-')
  writeFileSync(join(dir, 'openai.jsonl'), JSON.stringify(toOpenAI(record)) + '\n')
  writeFileSync(join(dir, 'sharegpt.jsonl'), JSON.stringify(toShareGPT(record)) + '\n')
  return dir
}

const savedPath = process.env.PATH
afterEach(() => {
  process.env.PATH = savedPath
})

/** Fake `ssh` and `rsync` on PATH that only log their argv (one JSON array a line). */
function fakeRemoteTools(dir: string): string {
  const bin = join(dir, 'bin')
  mkdirSync(bin, { recursive: true })
  const log = join(dir, 'calls.log')
  for (const name of ['ssh', 'rsync']) {
    writeFileSync(
      join(bin, name),
      `#!/usr/bin/env node\nrequire('fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify(['${name}', ...process.argv.slice(2)]) + '\\n')\n`,
    )
    chmodSync(join(bin, name), 0o755)
  }
  process.env.PATH = `${bin}:${savedPath}`
  return log
}

describe('LoRA job directory', () => {
  it('holds the data, the merged config, the script, pinned requirements and an executable run.sh', () => {
    const dir = dataFiles()
    const job = join(dir, 'jobs', 'run-1')
    const { files } = prepareJob({
      data: join(dir, 'sharegpt.jsonl'),
      format: 'sharegpt',
      jobDir: job,
      set: [
        'training.learning_rate=2e-4',
        'lora.r=8',
        'model=Qwen/Qwen3-8B',
        'chat_template_kwargs.enable_thinking=false',
      ],
    })
    expect(files).toEqual([
      'config.json',
      'data/train.jsonl',
      'preflight.py',
      'requirements-serve.txt',
      'requirements.txt',
      'run.sh',
      'serve.sh',
      'train_lora.py',
    ])
    expect(readFileSync(join(job, 'serve.sh'), 'utf8')).toContain('--lora-modules wsgym-lora=out/adapter')
    expect(readFileSync(join(job, 'data', 'train.jsonl'))).toEqual(readFileSync(join(dir, 'sharegpt.jsonl')))
    const cfg = JSON.parse(readFileSync(join(job, 'config.json'), 'utf8'))
    expect(cfg).toMatchObject({
      model: 'Qwen/Qwen3-8B',
      chat_template_kwargs: { enable_thinking: false },
      data: { path: 'data/train.jsonl', format: 'sharegpt' },
      lora: { r: 8, alpha: 32 },
      training: { learning_rate: 2e-4, output_dir: 'out' },
    })
    expect(readFileSync(join(job, 'train_lora.py'), 'utf8')).toBe(readFileSync(join(LORA_DIR, 'train_lora.py'), 'utf8'))
    const reqs = readFileSync(join(job, 'requirements.txt'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('#'))
    for (const l of reqs) expect(l).toMatch(/^[a-z0-9_.-]+==\d+(\.\d+)+$/i)
    expect(reqs.map((l) => l.split('==')[0])).toEqual(
      expect.arrayContaining(['torch', 'transformers', 'peft', 'accelerate', 'datasets']),
    )
    expect(statSync(join(job, 'run.sh')).mode & 0o111).not.toBe(0)
    const run = readFileSync(join(job, 'run.sh'), 'utf8')
    // Preflight before anything is installed; the check before training.
    expect(run.indexOf('preflight.py')).toBeLessThan(run.indexOf('pip install'))
    expect(run.indexOf('train_lora.py --config config.json --check')).toBeLessThan(run.indexOf('stage train'))
  })

  it('rejects an override without a value', () => {
    const dir = dataFiles()
    expect(() =>
      prepareJob({ data: join(dir, 'openai.jsonl'), format: 'openai', jobDir: join(dir, 'j'), set: ['lora.r'] }),
    ).toThrow('--set needs key=value')
  })
})

describe('launch plan', () => {
  it('prints the exact ssh/rsync commands with --dry-run and runs none of them', async () => {
    const dir = dataFiles()
    const log = fakeRemoteTools(dir)
    const job = join(dir, 'jobs', 'run-1')
    const out: string[] = []
    const code = await main(
      [
        'launch',
        '--data',
        join(dir, 'openai.jsonl'),
        '--format',
        'openai',
        '--job-dir',
        job,
        '--remote-dir',
        '~/jobs',
        '--ssh-opt=-p',
        '--ssh-opt',
        '2222',
        '--dry-run',
        '--eval-split',
        'test',
      ],
      { out: (s) => out.push(s), err: (s) => out.push(s), env: { WSGYM_TRAIN_HOST: 'gpu@h100' } },
    )
    expect(code, out.join('\n')).toBe(0)
    expect(out.slice(1)).toEqual([
      `ssh -p 2222 gpu@h100 'mkdir -p ~/jobs/run-1'`,
      `rsync -az --exclude out/ -e 'ssh -p 2222' ${job}/ 'gpu@h100:~/jobs/run-1/'`,
      `ssh -p 2222 gpu@h100 'cd ~/jobs/run-1 && bash run.sh train'`,
      `rsync -az --exclude .venv/ --exclude data/ -e 'ssh -p 2222' 'gpu@h100:~/jobs/run-1/' ${job}/`,
      // The job ends with the evaluation of the base model and the adapter on the test split, served on the host.
      `then: ssh -p 2222 -L 18000:127.0.0.1:8000 gpu@h100 'cd ~/jobs/run-1 && bash serve.sh 8000'; eval test for the base model and wsgym-lora`,
    ])
    expect(existsSync(log)).toBe(false)
    expect(existsSync(join(job, 'config.json'))).toBe(true)
  })

  it('runs the planned commands in order without a dry run', async () => {
    const dir = dataFiles()
    const log = fakeRemoteTools(dir)
    const job = join(dir, 'jobs', 'run-2')
    const plan = await launch(
      {
        data: join(dir, 'openai.jsonl'),
        format: 'openai',
        jobDir: job,
        host: 'gpu@h100',
        sshOpts: ['-i', '/keys/my key'],
      },
      () => undefined,
    )
    const calls = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(calls).toEqual(plan.commands)
    expect(calls[0]).toEqual(['ssh', '-i', '/keys/my key', 'gpu@h100', 'mkdir -p wsgym-jobs/run-2'])
    expect(calls[1]).toEqual([
      'rsync',
      '-az',
      '--exclude',
      'out/',
      '-e',
      `ssh -i '/keys/my key'`,
      `${job}/`,
      'gpu@h100:wsgym-jobs/run-2/',
    ])
  })

  it('starts a detached job without fetching, and plans nothing without a host', () => {
    const dir = dataFiles()
    const detached = planJob({ data: '', format: 'openai', jobDir: join(dir, 'x'), host: 'h', detach: true })
    expect(detached.commands.at(-1)).toEqual([
      'ssh',
      'h',
      'cd wsgym-jobs/x && nohup bash run.sh train > /dev/null 2>&1 < /dev/null & echo started',
    ])
    expect(detached.commands).toHaveLength(3)
    expect(planJob({ data: '', format: 'openai', jobDir: join(dir, 'x') }).commands).toEqual([])
  })
})

describe.skipIf(!hasPython)('train_lora.py without ML libraries', () => {
  const py = async (args: string[], cwd: string) =>
    (
      await promisify(execFile)('python3', args, {
        cwd,
        encoding: 'utf8',
        timeout: 30_000,
        env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
      })
    ).stdout

  it('--check refuses chat-format data it cannot tokenize (no transformers here) instead of passing it', async () => {
    const dir = dataFiles()
    const job = join(dir, 'job-openai')
    prepareJob({ data: join(dir, 'openai.jsonl'), format: 'openai', jobDir: job })
    const r = spawnSync('python3', ['train_lora.py', '--config', 'config.json', '--check'], {
      cwd: job,
      encoding: 'utf8',
    })
    expect(r.status).not.toBe(0)
    expect(r.stderr).toContain('transformers is not installed: cannot count what would be dropped')
  })

  it('--check counts tokens data and fails closed above the drop limit', async () => {
    const dir = dataFiles()
    const ok = { input_ids: [1, 2, 3, 4], labels: [-100, -100, 3, 4] }
    const lines = [ok, ok, ok, { input_ids: [1, 2], labels: [-100, -100] }].map((x) => JSON.stringify(x))
    writeFileSync(join(dir, 'tokens.jsonl'), [...lines, '{"broken'].join('\n') + '\n')
    const job = join(dir, 'job-tokens')
    prepareJob({
      data: join(dir, 'tokens.jsonl'),
      devData: join(dir, 'tokens.jsonl'),
      format: 'tokens',
      jobDir: job,
      set: ['max_drop_fraction=0.5'],
    })
    const res = JSON.parse(await py(['train_lora.py', '--config', 'config.json', '--check'], job))
    expect(res).toMatchObject({
      ok: true,
      train: { rows: 4, bad_lines: 1, examples: 4, kept: 3, no_assistant_tokens: 1 },
      dev: { kept: 3 },
      drop_fraction: 0.25,
    })
    prepareJob({ data: join(dir, 'tokens.jsonl'), format: 'tokens', jobDir: job, set: ['max_drop_fraction=0.1'] })
    const strict = spawnSync('python3', ['train_lora.py', '--config', 'config.json', '--check'], {
      cwd: job,
      encoding: 'utf8',
    })
    expect(strict.status).toBe(3)
    expect(strict.stderr).toContain('check: refusing: 25.0% of the training data would be dropped (limit 10.0%')
  })

  it('falls back to one example per turn for a template that marks only the last assistant turn (like Qwen3)', async () => {
    const dir = dataFiles()
    const script = `
import json, sys
sys.path.insert(0, ${JSON.stringify(LORA_DIR)})
import train_lora as t
class Tok:
    def apply_chat_template(self, msgs, tools=None, add_generation_prompt=False, tokenize=True):
        out = ""
        for k, m in enumerate(msgs):
            last = k == len(msgs) - 1 and m["role"] == "assistant" and not add_generation_prompt
            calls = "".join(f"<call>{c['function']['name']}</call>" for c in m.get("tool_calls") or [])
            out += f"<|{m['role']}|>{'<think></think>' if last else ''}{m.get('content') or ''}{calls}<|end|>\\n"
        if add_generation_prompt:
            out += "<|assistant|>"
        return list(out.encode())
messages, tools = t.from_openai(json.loads(open(${JSON.stringify(join(dir, 'openai.jsonl'))}).readline()))
exs = t.tokenize_examples(Tok(), messages, tools, {}, "auto", "strip")
print(json.dumps([bytes([i for i, l in zip(e["input_ids"], e["labels"]) if l != t.IGNORE_INDEX]).decode() for e in exs]))
try:
    t.tokenize_examples(Tok(), messages, tools, {}, "conversation", "strip")
    print("no mismatch")
except t.Mismatch:
    print("mismatch")
`
    const [labels, conv] = (await py(['-c', script], dir)).trim().split('\n')
    expect(JSON.parse(labels!)).toEqual([
      '<think></think><call>http_request</call><call>http_request</call><|end|>\n',
      '<think></think>Done.<|end|>\n',
      '<think></think><call>done</call><|end|>\n',
    ])
    expect(conv).toBe('mismatch')
  })

  it('labels exactly the assistant turns with the prefix method', async () => {
    const dir = dataFiles()
    const script = `
import json, sys
sys.path.insert(0, ${JSON.stringify(LORA_DIR)})
import train_lora as t
class Tok:
    def apply_chat_template(self, msgs, tools=None, add_generation_prompt=False, tokenize=True):
        out = ""
        for m in msgs:
            calls = "".join(f"<call>{c['function']['name']}({json.dumps(c['function']['arguments'])})</call>" for c in m.get("tool_calls") or [])
            out += f"<|{m['role']}|>{m.get('content') or ''}{calls}<|end|>\\n"
        if add_generation_prompt:
            out += "<|assistant|>"
        return list(out.encode())
messages, tools = t.from_openai(json.loads(open(${JSON.stringify(join(dir, 'openai.jsonl'))}).readline()))
[ex] = t.tokenize_examples(Tok(), messages, tools, {}, "conversation", "strip")
ids, labels = ex["input_ids"], ex["labels"]
spans, cur = [], []
for i, l in zip(ids, labels):
    if l != t.IGNORE_INDEX:
        cur.append(i)
    elif cur:
        spans.append(bytes(cur).decode()); cur = []
if cur: spans.append(bytes(cur).decode())
print(json.dumps(spans))
`
    const spans = JSON.parse(await py(['-c', script], dir))
    expect(spans).toEqual([
      '<call>http_request({"method": "GET", "path": "/a"})</call><call>http_request({"method": "GET", "path": "/b"})</call><|end|>\n',
      'Done.<|end|>\n',
      '<call>done({})</call><|end|>\n',
    ])
  })
})
