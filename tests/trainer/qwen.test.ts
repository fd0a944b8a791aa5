import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Running } from '../../server/main.ts'
import { OfflineChatTokenizer, readTokenizerDir, sha256 } from '../../trainer/chat-template.ts'
import { exportSft, IGNORE_INDEX, toOpenAI } from '../../trainer/export.ts'
import { GymClient } from '../../trainer/http.ts'
import { collectReferences, loadCorpusFiles } from '../../trainer/reference.ts'
import { DEFAULT_CORPUS, main } from '../../trainer/cli.ts'
import type { TokenExample } from '../../trainer/tokens.ts'
import type { RolloutRecord, ToolCall } from '../../trainer/types.ts'
import { ADMIN, startGym } from './support.ts'
import { pyJson, QWEN3_DIR, qwen25Files, qwen3Files } from './qwen.ts'
import { tempDirs } from '../support/tmp-dirs.ts'

const tempDir = tempDirs()

const qwen3 = new OfflineChatTokenizer(qwen3Files(), { enable_thinking: false })
const qwen3Thinking = new OfflineChatTokenizer(qwen3Files())
const qwen25 = new OfflineChatTokenizer(qwen25Files())
const NO_THINK = '<think>\n\n</think>\n\n'

describe('offline Qwen tokenizers', () => {
  it('give the Qwen vocabulary ids for control tokens and text', () => {
    expect(qwen3.encode('<|im_start|>system\n')).toEqual([151644, 8948, 198])
    expect(qwen3.encode('<|im_start|>assistant\n')).toEqual([151644, 77091, 198])
    expect(qwen3.encode('<|im_start|>user\nHello world<|im_end|>')).toEqual([151644, 872, 198, 9707, 1879, 151645])
    expect(qwen3.encode(NO_THINK)).toEqual([151667, 271, 151668, 271])
    expect(qwen3.encode('<tool_call>\n</tool_call>')).toEqual([151657, 198, 151658])
    for (const t of [qwen3, qwen25])
      expect(t.decode(t.encode('Naïve café — 日本語 {"a": [1, 2]}'))).toBe('Naïve café — 日本語 {"a": [1, 2]}')
  })

  it('keep Qwen2.5 without the tokens Qwen3 added', () => {
    expect(qwen25.encode('<tool_call>')).toEqual([151657])
    expect(qwen25.encode('<tool_response>').length).toBeGreaterThan(1)
    expect(qwen25.encode('<think>').length).toBeGreaterThan(1)
    expect(qwen3.encode('<tool_response>')).toEqual([151665])
  })

  it('render a tool conversation as vLLM prepares it: null content as "", JSON-string arguments as objects', () => {
    const tools = [{ type: 'function' as const, function: { name: 'f', parameters: { type: 'object' } } }]
    const msgs = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{"q":"é","n":[1,2]}' } }],
      },
    ]
    const text = qwen25.render(msgs, tools, false)
    expect(text).toContain(
      '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.\n\n# Tools\n',
    )
    expect(text).toContain(`\n${pyJson(tools[0])}\n</tools>`)
    expect(
      text.endsWith(
        '<|im_start|>user\ngo<|im_end|>\n<|im_start|>assistant\n<tool_call>\n{"name": "f", "arguments": {"q": "é", "n": [1, 2]}}\n</tool_call><|im_end|>\n',
      ),
    ).toBe(true)
    expect(
      qwen3
        .render(msgs, tools, false)
        .endsWith(
          `<|im_start|>assistant\n${NO_THINK}<tool_call>\n{"name": "f", "arguments": {"q": "é", "n": [1, 2]}}\n</tool_call><|im_end|>\n`,
        ),
    ).toBe(true)
    expect(qwen3.templateHash).toBe(sha256(JSON.parse(qwen3Files().tokenizerConfig).chat_template))
  })
})

/** What a Qwen template writes for an assistant turn after its header (and after the generation prompt). */
function turnText(m: { content?: unknown; tool_calls?: ToolCall[] }): string {
  const c = typeof m.content === 'string' ? m.content : ''
  const calls = (m.tool_calls ?? []).map(
    (t, k) =>
      `${k > 0 || c ? '\n' : ''}<tool_call>\n{"name": "${t.function.name}", "arguments": ${pyJson(JSON.parse(t.function.arguments))}}\n</tool_call>`,
  )
  return `${c}${calls.join('')}<|im_end|>\n`
}

let server: Running
let records: RolloutRecord[]
/** The first `n` tasks of each family (the corpus has PER_FAMILY per family; a sample keeps the suite fast). */
const firstOfEachFamily = <T extends { family: string }>(ts: T[], n: number) => {
  const seen = new Map<string, number>()
  return ts.filter((t) => (seen.set(t.family, (seen.get(t.family) ?? 0) + 1).get(t.family) ?? 0) <= n)
}
beforeAll(async () => {
  server = await startGym()
  records = await collectReferences({
    gym: new GymClient(server.controlUrl, ADMIN),
    tasks: firstOfEachFamily(loadCorpusFiles(DEFAULT_CORPUS), 4),
    concurrency: 4,
  })
}, 600_000)
afterAll(async () => server?.close())

const examples = (lines: string[] | undefined) => (lines ?? []).map((l) => JSON.parse(l) as TokenExample)
const onePerFamily = () => [...new Map(records.filter((r) => r.verdict?.passed).map((r) => [r.family, r])).values()]

describe('reference trajectories through the real Qwen templates, offline', () => {
  it('are multi-turn and pass', () => {
    // (A reference that fails is the gym's or the corpus's business, tests/trainer/reference.test.ts; the export
    // below takes every trajectory that passed, as `export` does by default.)
    expect(records.filter((r) => r.verdict?.passed).length).toBeGreaterThanOrEqual(100)
    expect(records.every((r) => r.messages.filter((m) => m.role === 'assistant').length >= 2)).toBe(true)
  })

  it('Qwen3 (enable_thinking: false): every trajectory becomes one example per assistant turn with only that turn labelled', async () => {
    const res = await exportSft(records, { formats: ['tokens'], tokenize: qwen3.tokenize })
    const passed = records.filter((r) => r.verdict?.passed)
    expect(res.kept).toBe(passed.length)
    expect(res.skipped).toEqual([])
    const ex = examples(res.lines.tokens)
    const turns = passed.reduce((n, r) => n + toOpenAI(r).messages.filter((m) => m.role === 'assistant').length, 0)
    expect(res.masks).toEqual({ conversation: 0, perTurn: turns, recordsPerTurn: passed.length })
    expect(ex).toHaveLength(turns)
    let prev: { record: number; prompt: string; label: string } | undefined
    for (const e of ex) {
      const r = records.find((x) => x.index === e.record)!
      const msgs = toOpenAI(r).messages
      const [[a, b]] = e.assistant_spans as [[number, number]]
      expect(b).toBe(e.input_ids.length)
      expect(e.labels.slice(0, a).every((x) => x === IGNORE_INDEX)).toBe(true)
      expect(e.labels.slice(a)).toEqual(e.input_ids.slice(a))
      const prompt = qwen3.decode(e.input_ids.slice(0, a))
      const label = qwen3.decode(e.input_ids.slice(a))
      expect(label).toBe(turnText(msgs[e.turn!] as never))
      // The prompt is what the model was given at that turn: the generation prompt closes an empty think block, and
      // earlier turns appear as the template renders history (no think block), each exactly as it was produced.
      expect(prompt.endsWith(`<|im_start|>assistant\n${NO_THINK}`)).toBe(true)
      expect(prompt.split('<think>')).toHaveLength(2)
      if (prev?.record === e.record)
        expect(prompt.startsWith(prev.prompt.slice(0, -NO_THINK.length) + prev.label)).toBe(true)
      prev = { record: e.record, prompt, label }
    }
  }, 300_000)

  it('Qwen3 in thinking mode labels the empty think block the template puts before the turn', async () => {
    const res = await exportSft(onePerFamily(), { formats: ['tokens'], tokenize: qwen3Thinking.tokenize })
    expect(res.skipped).toEqual([])
    for (const e of examples(res.lines.tokens)) {
      const msgs = toOpenAI(records.find((x) => x.index === e.record)!).messages
      const [[a]] = e.assistant_spans as [[number, number]]
      expect(qwen3.decode(e.input_ids.slice(0, a)).endsWith('<|im_start|>assistant\n')).toBe(true)
      expect(qwen3.decode(e.input_ids.slice(a))).toBe(NO_THINK + turnText(msgs[e.turn!] as never))
    }
  }, 120_000)

  it('Qwen2.5 is prefix-stable: one example per trajectory, each assistant turn labelled where it is', async () => {
    const rs = onePerFamily()
    const res = await exportSft(rs, { formats: ['tokens'], tokenize: qwen25.tokenize })
    expect(res.skipped).toEqual([])
    expect(res.masks).toEqual({ conversation: rs.length, perTurn: 0, recordsPerTurn: 0 })
    for (const e of examples(res.lines.tokens)) {
      const msgs = toOpenAI(rs.find((x) => x.index === e.record)!).messages
      const want = msgs.filter((m) => m.role === 'assistant').map((m) => turnText(m as never))
      expect(e.assistant_spans.map(([a, b]) => qwen25.decode(e.input_ids.slice(a, b)))).toEqual(want)
      expect(
        e.assistant_spans.every(([a]) => qwen25.decode(e.input_ids.slice(0, a)).endsWith('<|im_start|>assistant\n')),
      ).toBe(true)
      expect(e.labels.filter((x) => x !== IGNORE_INDEX)).toHaveLength(
        e.assistant_spans.reduce((n, [a, b]) => n + b - a, 0),
      )
    }
  }, 120_000)

  it('the CLI exports offline from a tokenizer directory and records hashes and counts in the manifest', async () => {
    const dir = tempDir('trainer-qwen-')
    const input = join(dir, 'ref.jsonl')
    const rs = onePerFamily().slice(0, 3)
    writeFileSync(input, rs.map((r) => JSON.stringify(r)).join('\n') + '\n{"broken": \n')
    const out: string[] = []
    const err: string[] = []
    const code = await main(
      [
        'export',
        '--in',
        input,
        '--out-dir',
        join(dir, 'sft'),
        '--format',
        'openai,sharegpt,verifiers,tokens',
        '--tokenizer',
        QWEN3_DIR,
        '--chat-template-kwargs',
        '{"enable_thinking":false}',
      ],
      { out: (s) => out.push(s), err: (s) => err.push(s), env: {} },
    )
    expect(code, err.join('\n')).toBe(0)
    expect(err).toEqual([expect.stringMatching(/^bad record .*ref\.jsonl:4: not JSON/)])
    const manifest = JSON.parse(readFileSync(join(dir, 'sft', 'manifest.json'), 'utf8'))
    const files = readTokenizerDir(QWEN3_DIR)
    expect(manifest).toMatchObject({
      read: 4,
      kept: 3,
      badRecords: [{ line: 4 }],
      tokens: {
        tokenizer: {
          kind: 'offline',
          tokenizerSha256: sha256(files.tokenizerJson),
          templateSha256: sha256(JSON.parse(files.tokenizerConfig).chat_template),
        },
        chatTemplateKwargs: { enable_thinking: false },
        conversation: 0,
        recordsPerTurn: 3,
      },
    })
    const tokens = readFileSync(join(dir, 'sft', 'tokens.jsonl'), 'utf8')
    expect(manifest.files['tokens.jsonl']).toEqual({ lines: manifest.tokens.perTurn, sha256: sha256(tokens) })
    expect(JSON.parse(readFileSync(join(dir, 'sft', 'dataset_info.json'), 'utf8'))).toMatchObject({
      wsgym_sharegpt: {
        file_name: 'sharegpt.jsonl',
        formatting: 'sharegpt',
        columns: { messages: 'conversations', tools: 'tools' },
      },
    })
    const v = readFileSync(join(dir, 'sft', 'verifiers.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(v[0]).toMatchObject({
      prompt: [{ role: 'system' }, { role: 'user' }],
      task: rs[0]!.family,
      reward: 1,
      info: { task_id: rs[0]!.taskId },
    })
    expect(v[0].completion[0].role).toBe('assistant')
  }, 120_000)
})
