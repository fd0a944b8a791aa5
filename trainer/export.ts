/**
 * SFT exporter: rollout JSONL → OpenAI chat JSONL, ShareGPT JSONL (LLaMA-Factory, with its dataset_info.json),
 * verifiers / prime-rl prompt–completion rows, and token ids with assistant-only labels (trainer/tokens.ts: the
 * model's own chat template, offline or through vLLM's `/tokenize`), plus a manifest of what was written and why.
 *
 * A bad input line or record is reported and skipped, never fatal to the batch; so is a record one format cannot
 * hold (the others still get it).
 */
import { readFileSync } from 'node:fs'
import { orderedPool, parseToolArguments } from './rollout.ts'
import { taskSplit } from './split.ts'
import { tokenExamples, TemplateMismatch, type MaskMode, type Thinking, type TokenExample } from './tokens.ts'
import type { ChatMessage, RolloutRecord, ToolDef } from './types.ts'

export { IGNORE_INDEX, TemplateMismatch } from './tokens.ts'

/** Chat-template tokenization: messages (+ tools) → token ids. */
export type ChatTokenizer = (
  messages: Record<string, unknown>[],
  tools: ToolDef[],
  addGenerationPrompt: boolean,
) => Promise<number[]>

/** An input line or record that was left out, and why. */
export type BadRecord = { file: string; line: number; taskId?: string; reason: string }

/** Why a parsed line is not a usable rollout record (undefined: it is one). */
export function recordProblem(r: unknown): string | undefined {
  if (!r || typeof r !== 'object' || Array.isArray(r)) return 'not a JSON object'
  const o = r as Record<string, unknown>
  if (typeof o.taskId !== 'string' || typeof o.family !== 'string') return 'no taskId/family'
  if (!Array.isArray(o.messages)) return 'no messages array'
  if (!Array.isArray(o.tools)) return 'no tools array'
  if (
    o.verdict !== null &&
    (typeof o.verdict !== 'object' || typeof (o.verdict as { reward?: unknown }).reward !== 'number')
  )
    return 'verdict is not null or an object with a reward'
  for (const [i, m] of (o.messages as unknown[]).entries()) {
    const msg = m as Record<string, unknown> | null
    if (!msg || typeof msg !== 'object' || !['system', 'user', 'assistant', 'tool'].includes(String(msg.role)))
      return `message ${i} has no known role`
    if (msg.role !== 'assistant' && typeof msg.content !== 'string')
      return `message ${i} (${String(msg.role)}) has no string content`
    if (msg.role === 'tool' && typeof msg.tool_call_id !== 'string') return `message ${i} (tool) has no tool_call_id`
  }
  return undefined
}

/**
 * Reads a rollout JSONL file (blank lines skipped). A line that is not JSON, or not a rollout record, goes to `bad`
 * with its line number; the other lines are read.
 */
export function readRecords(path: string, bad: BadRecord[] = []): RolloutRecord[] {
  const out: RolloutRecord[] = []
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (!line.trim()) return
      let v: unknown
      try {
        v = JSON.parse(line)
      } catch (e) {
        return void bad.push({ file: path, line: i + 1, reason: `not JSON: ${(e as Error).message}` })
      }
      const why = recordProblem(v)
      if (why)
        return void bad.push({
          file: path,
          line: i + 1,
          taskId: (v as { taskId?: string } | null)?.taskId,
          reason: why,
        })
      out.push(v as RolloutRecord)
    })
  return out
}

export type FilterOptions = {
  /** Keep only episodes the oracle passed (default true). */
  passedOnly?: boolean
  /** Keep only episodes with reward ≥ this. */
  minReward?: number
  /** Drop episodes with safety violations (default true). */
  noViolations?: boolean
  /** Drop episodes with more invalid tool calls than this. */
  maxInvalidToolCalls?: number
  /** Keep episodes whose assistant turns hold malformed tool calls (default false: they are dropped). */
  keepMalformedCalls?: boolean
  families?: string[]
  sources?: RolloutRecord['source'][]
  /** Keep only records of these splits (a record's `split`, else trainer/split.ts taskSplit of its task id). */
  splits?: string[]
}

/**
 * Tool calls in the assistant turns that a model should not learn: arguments that are not a JSON object, no name,
 * or a name the episode's tool list does not have. (The rollout's `invalidToolCalls` counts the first kinds as they
 * happened; this reads the messages, so records from any source are judged alike.)
 */
export function malformedToolCalls(r: RolloutRecord): number {
  const names = new Set(r.tools.map((t) => t.function.name))
  let n = 0
  for (const m of r.messages) {
    if (m.role !== 'assistant') continue
    for (const c of m.tool_calls ?? []) {
      if (!c?.function || typeof c.function.arguments !== 'string') {
        n++
        continue
      }
      if (typeof parseToolArguments(c) === 'string' || !names.has(c.function.name)) n++
    }
  }
  return n
}

/** Keeps the records that pass every filter; `dropped` counts the first reason each other record failed. */
export function filterRecords(
  records: RolloutRecord[],
  f: FilterOptions = {},
): { kept: RolloutRecord[]; dropped: Record<string, number> } {
  const dropped: Record<string, number> = {}
  const kept = records.filter((r) => {
    const why = !r.verdict
      ? 'no verdict'
      : (f.passedOnly ?? true) && !r.verdict.passed
        ? 'not passed'
        : f.minReward !== undefined && r.verdict.reward < f.minReward
          ? 'reward below minimum'
          : (f.noViolations ?? true) && r.verdict.violations.length > 0
            ? 'safety violation'
            : f.maxInvalidToolCalls !== undefined && r.invalidToolCalls > f.maxInvalidToolCalls
              ? 'invalid tool calls'
              : !f.keepMalformedCalls && malformedToolCalls(r) > 0
                ? 'malformed tool calls'
                : f.families?.length && !f.families.includes(r.family)
                  ? 'family'
                  : f.sources?.length && !f.sources.includes(r.source)
                    ? 'source'
                    : f.splits?.length && !f.splits.includes(taskSplit({ id: r.taskId, split: r.split }))
                      ? 'split'
                      : !r.messages.some((m) => m.role === 'assistant')
                        ? 'no assistant message'
                        : undefined
    if (why) dropped[why] = (dropped[why] ?? 0) + 1
    return !why
  })
  return { kept, dropped }
}

/** The conversation up to its last assistant message (what follows it — the `done` call's "ok" — is not trained on). */
export function trainingMessages(messages: ChatMessage[]): ChatMessage[] {
  let last = -1
  messages.forEach((m, i) => {
    if (m.role === 'assistant') last = i
  })
  return messages.slice(0, last + 1)
}

/**
 * OpenAI chat fine-tuning line: `{messages, tools}` (assistant tool calls carry JSON-string arguments). With
 * `thinking: 'keep'` an assistant's `reasoning_content` stays on it (vLLM and Hugging Face templates read that name);
 * `strip` (the default) removes it and any `<think>…</think>` block from the content.
 */
export function toOpenAI(
  r: RolloutRecord,
  thinking: Thinking = 'strip',
): { messages: Record<string, unknown>[]; tools: ToolDef[] } {
  const messages = trainingMessages(r.messages).map((m) => {
    if (m.role !== 'assistant') return { ...m } as Record<string, unknown>
    const out: Record<string, unknown> = { role: 'assistant' }
    let content = m.content
    if (thinking === 'strip' && content?.includes('</think>'))
      content = content.slice(content.lastIndexOf('</think>') + 8).replace(/^\n+/, '')
    if (content !== null && content !== '') out.content = content
    else if (!m.tool_calls?.length) out.content = ''
    if (thinking === 'keep' && m.reasoning_content) out.reasoning_content = m.reasoning_content
    if (m.tool_calls?.length) out.tool_calls = m.tool_calls
    return out
  })
  return { messages, tools: r.tools }
}

export type ShareGptTurn = { from: 'system' | 'human' | 'gpt' | 'function_call' | 'observation'; value: string }

/**
 * How LLaMA-Factory joins the answers to parallel tool calls into one observation (its OpenAI-format converter):
 * with the Qwen templates' `<tool_response>\n…\n</tool_response>` wrapper around the observation this renders
 * exactly as the served template renders several tool messages in a row.
 */
export const TOOL_RESPONSE_JOIN = '\n</tool_response>\n<tool_response>\n'

const argsValue = (s: string): unknown => {
  try {
    return JSON.parse(s || '{}')
  } catch {
    return s
  }
}

/**
 * ShareGPT line (LLaMA-Factory's tool-calling layout): `{conversations: [{from, value}], tools}` where `tools` is a
 * JSON string of the function definitions; an assistant tool-call turn is `function_call` with `{"name","arguments"}`
 * (a JSON list when the turn made several calls) and the tool answers that follow are one `observation`, several
 * answers joined with TOOL_RESPONSE_JOIN. Text an assistant wrote beside its tool calls has no place here and is
 * dropped (`droppedText` counts such turns). LLaMA-Factory needs user/observation and assistant/function_call turns to
 * alternate, ending on an assistant turn; a conversation that does not is refused
 * (`problem`), as LLaMA-Factory would silently skip it.
 */
export function toShareGPT(r: RolloutRecord): {
  conversations: ShareGptTurn[]
  tools: string
  droppedText: number
  problem?: string
} {
  const conv: ShareGptTurn[] = []
  let droppedText = 0
  const msgs = trainingMessages(r.messages)
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i]!
    if (m.role === 'system') conv.push({ from: 'system', value: m.content })
    else if (m.role === 'user') conv.push({ from: 'human', value: m.content })
    else if (m.role === 'assistant') {
      if (m.tool_calls?.length) {
        if (m.content?.trim()) droppedText++
        const calls = m.tool_calls.map((c) => ({ name: c.function.name, arguments: argsValue(c.function.arguments) }))
        conv.push({ from: 'function_call', value: JSON.stringify(calls.length === 1 ? calls[0] : calls) })
      } else conv.push({ from: 'gpt', value: m.content ?? '' })
    } else {
      const answers: string[] = []
      while (i < msgs.length && msgs[i]!.role === 'tool') answers.push((msgs[i++] as { content: string }).content)
      i--
      conv.push({ from: 'observation', value: answers.join(TOOL_RESPONSE_JOIN) })
    }
  }
  const body = conv[0]?.from === 'system' ? conv.slice(1) : conv
  const odd = body.findIndex(
    (t, k) => !(k % 2 === 0 ? ['human', 'observation'] : ['gpt', 'function_call']).includes(t.from),
  )
  const problem =
    odd >= 0
      ? `turn ${odd} ("${body[odd]!.from}") breaks the user/assistant alternation LLaMA-Factory needs`
      : body.length % 2 !== 0
        ? 'the conversation does not end on an assistant turn'
        : undefined
  return {
    conversations: conv,
    tools: JSON.stringify(r.tools.map((t) => t.function)),
    droppedText,
    ...(problem ? { problem } : {}),
  }
}

/** The LLaMA-Factory `dataset_info.json` entry that reads sharegpt.jsonl as written here. */
export function llamaFactoryDatasetInfo(fileName = 'sharegpt.jsonl', name = 'wsgym_sharegpt') {
  return {
    [name]: {
      file_name: fileName,
      formatting: 'sharegpt',
      columns: { messages: 'conversations', tools: 'tools' },
      tags: {
        role_tag: 'from',
        content_tag: 'value',
        user_tag: 'human',
        assistant_tag: 'gpt',
        observation_tag: 'observation',
        function_tag: 'function_call',
        system_tag: 'system',
      },
    },
  }
}

/**
 * A verifiers / prime-rl row: `prompt` (system + task), `completion` (everything the agent did and saw up to its last
 * turn, OpenAI messages with JSON-string arguments), `tools`, and the verdict as `reward`, `task` (the family) and
 * `info`. prime-rl's SFT trainer reads `prompt`/`completion` (or openai.jsonl's `messages`) with `tools`.
 */
export function toVerifiers(r: RolloutRecord, thinking: Thinking = 'strip') {
  const { messages, tools } = toOpenAI(r, thinking)
  const firstAgent = messages.findIndex((m) => m.role === 'assistant')
  return {
    prompt: messages.slice(0, firstAgent),
    completion: messages.slice(firstAgent),
    tools,
    task: r.family,
    reward: r.verdict?.reward ?? 0,
    info: { task_id: r.taskId, source: r.source, model: r.model, sample: r.sample, passed: r.verdict?.passed ?? false },
  }
}

/**
 * Whether the tokenizer renders tool definitions at all: older vLLM versions accept `/tokenize` without a `tools`
 * field and silently drop it, which would train on prompts that never list the tools.
 */
export async function toolsRendered(tokenize: ChatTokenizer, r: RolloutRecord): Promise<boolean> {
  if (!r.tools.length) return true
  const head = toOpenAI(r).messages.slice(0, 2)
  const [a, b] = await Promise.all([tokenize(head, r.tools, false), tokenize(head, [], false)])
  return a.length !== b.length || a.some((x, i) => x !== b[i])
}

export type ExportFormat = 'openai' | 'sharegpt' | 'verifiers' | 'tokens'
export const EXPORT_FORMATS: ExportFormat[] = ['openai', 'sharegpt', 'verifiers', 'tokens']

export type ExportOptions = {
  formats: ExportFormat[]
  filter?: FilterOptions
  tokenize?: ChatTokenizer
  concurrency?: number
  /** Token examples longer than this are skipped. */
  maxLength?: number
  mask?: MaskMode
  thinking?: Thinking
}

export type ExportResult = {
  read: number
  kept: number
  dropped: Record<string, number>
  lines: Partial<Record<ExportFormat, string[]>>
  /** Records a format could not hold, with why (the record still went to the other formats). */
  skipped: { format: ExportFormat; taskId: string; index: number; reason: string }[]
  /** Token examples by how their labels were placed. */
  masks: { conversation: number; perTurn: number; recordsPerTurn: number }
  /** Assistant turns whose text beside tool calls the ShareGPT layout could not keep. */
  sharegptDroppedText: number
}

/** Filters records and renders the requested formats (JSONL lines, in record order). Never throws for one record. */
export async function exportSft(records: RolloutRecord[], opts: ExportOptions): Promise<ExportResult> {
  const { kept, dropped } = filterRecords(records, opts.filter)
  const thinking = opts.thinking ?? 'strip'
  const res: ExportResult = {
    read: records.length,
    kept: kept.length,
    dropped,
    lines: {},
    skipped: [],
    masks: { conversation: 0, perTurn: 0, recordsPerTurn: 0 },
    sharegptDroppedText: 0,
  }
  const skip = (format: ExportFormat, r: RolloutRecord, reason: string) =>
    res.skipped.push({ format, taskId: r.taskId, index: r.index, reason })
  const each = (format: ExportFormat, render: (r: RolloutRecord) => unknown) => {
    if (!opts.formats.includes(format)) return
    const lines: string[] = []
    for (const r of kept) {
      try {
        lines.push(JSON.stringify(render(r)))
      } catch (e) {
        skip(format, r, (e as Error).message)
      }
    }
    res.lines[format] = lines
  }
  each('openai', (r) => toOpenAI(r, thinking))
  each('sharegpt', (r) => {
    const { conversations, tools, droppedText, problem } = toShareGPT(r)
    if (problem) throw new Error(problem)
    res.sharegptDroppedText += droppedText
    return { conversations, tools }
  })
  each('verifiers', (r) => toVerifiers(r, thinking))
  if (opts.formats.includes('tokens')) {
    const tokenize = opts.tokenize
    if (!tokenize)
      throw new Error(
        'the tokens format needs a tokenizer: --tokenizer DIR (offline) or --tokenize-url/--base-url (vLLM)',
      )
    const lines: string[] = []
    await orderedPool(
      kept.length,
      opts.concurrency ?? 4,
      async (i): Promise<{ examples?: TokenExample[]; skip?: string }> => {
        const r = kept[i]!
        try {
          const { messages, tools } = toOpenAI(r, 'keep')
          const ex = await tokenExamples(messages, tools, tokenize, { mask: opts.mask, thinking })
          const long = ex.find((e) => opts.maxLength !== undefined && e.input_ids.length > opts.maxLength)
          if (long) return { skip: `longer than ${opts.maxLength} tokens (${long.input_ids.length})` }
          return { examples: ex.map((e) => ({ task_id: r.taskId, record: r.index, ...e })) }
        } catch (e) {
          return {
            skip:
              e instanceof TemplateMismatch
                ? `chat template not prefix-stable: ${e.message}`
                : `tokenizer failed: ${(e as Error).message}`,
          }
        }
      },
      (out, i) => {
        if (!out.examples) return void skip('tokens', kept[i]!, out.skip!)
        for (const e of out.examples) lines.push(JSON.stringify(e))
        const perTurn = out.examples.filter((e) => e.mask === 'per-turn').length
        res.masks.perTurn += perTurn
        res.masks.conversation += out.examples.length - perTurn
        if (perTurn) res.masks.recordsPerTurn++
      },
    )
    res.lines.tokens = lines
  }
  return res
}
