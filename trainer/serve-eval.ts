/**
 * The end of a LoRA job: serve the base model with the new adapter on the GPU host (vLLM, `--enable-lora
 * --lora-modules wsgym-lora=out/adapter`), reach it through an ssh tunnel, and run `eval` on a split for the base
 * model and the adapter through the local gym. Not yet run on a GPU (trainer/README.md).
 */
import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { evaluate, formatReports, type EvalReport, type Split } from './eval.ts'
import type { GymClient } from './http.ts'
import { readJobRecord, shellQuote } from './launch.ts'

export const ADAPTER_NAME = 'wsgym-lora'

/** serve.sh of a job: a second virtualenv with vLLM, then `vllm serve` with the adapter (exec: ssh's end stops it). */
export const SERVE_SH = (python: string) => `#!/usr/bin/env bash
# Serves the job's base model with its adapter for evaluation: bash serve.sh PORT
set -euo pipefail
cd "$(dirname "$0")"
PORT="\${1:-8000}"
if [ ! -d .venv-serve ]; then ${python} -m venv .venv-serve; fi
. .venv-serve/bin/activate
pip install --quiet -r requirements-serve.txt
MODEL=$(python -c 'import json; print(json.load(open("config.json"))["model"])')
RANK=$(python -c 'import json; print(json.load(open("config.json"))["lora"]["r"])')
exec vllm serve "$MODEL" --host 127.0.0.1 --port "$PORT" --enable-lora --max-lora-rank "$RANK" \\
  --lora-modules ${ADAPTER_NAME}=out/adapter --enable-auto-tool-choice --tool-call-parser hermes
`

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The ssh command that runs serve.sh on the host and forwards localPort to it. */
export function serveCommand(jobDir: string, localPort: number, remotePort = 8000): string[] {
  const j = readJobRecord(jobDir)
  const q = j.remote.startsWith('~/') ? `~/${shellQuote(j.remote.slice(2))}` : shellQuote(j.remote)
  const tunnel = `${localPort}:127.0.0.1:${remotePort}`
  return ['ssh', ...j.sshOpts, '-L', tunnel, j.host, `cd ${q} && bash serve.sh ${remotePort}`]
}

/** Serves the adapter, evaluates base and adapter on the split, writes out/eval.json; stops the server after. */
export async function serveAndEvaluate(opts: {
  jobDir: string
  gym: GymClient
  split: Split
  model: string
  k?: number
  localPort?: number
  readyTimeoutMs?: number
  log?: (s: string) => void
}): Promise<EvalReport[]> {
  const log = opts.log ?? console.log
  const port = opts.localPort ?? 18000
  const argv = serveCommand(opts.jobDir, port)
  log(`$ ${argv.map(shellQuote).join(' ')}`)
  const server = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'inherit', 'inherit'] })
  try {
    const baseUrl = `http://127.0.0.1:${port}/v1`
    const deadline = Date.now() + (opts.readyTimeoutMs ?? 30 * 60_000)
    for (;;) {
      if (server.exitCode !== null) {
        throw new Error(`the model server stopped (exit ${server.exitCode}) before it was ready`)
      }
      const up = await fetch(`${baseUrl}/models`).then(
        (r) => r.ok,
        () => false,
      )
      if (up) break
      if (Date.now() > deadline) throw new Error(`the model server was not ready at ${baseUrl}`)
      await sleep(5000)
    }
    const reports: EvalReport[] = []
    for (const model of [opts.model, ADAPTER_NAME]) {
      const chat = { baseUrl, model, temperature: 0, maxTokens: 2048 }
      reports.push((await evaluate({ gym: opts.gym, chat, split: opts.split, k: opts.k ?? 1 })).report)
    }
    log(formatReports(reports))
    mkdirSync(join(resolve(opts.jobDir), 'out'), { recursive: true })
    const doc = JSON.stringify({ split: opts.split, reports }, null, 2) + '\n'
    writeFileSync(join(resolve(opts.jobDir), 'out', 'eval.json'), doc)
    return reports
  } finally {
    server.kill()
  }
}
