/**
 * SFT exporter: rollout JSONL → (a) OpenAI chat fine-tuning JSONL, (b) ShareGPT JSONL, (c) token ids with
 * assistant-only labels, computed with the model server's chat template through vLLM's `POST /tokenize`.
 *
 * Token labels, the method: for every assistant message i of a conversation M,
 *   P_i = tokenize(M[0..i),  add_generation_prompt = true)    the context up to and including the assistant header
 *   Q_i = tokenize(M[0..i],  add_generation_prompt = false)   the same plus assistant message i as the template renders it
 *   F   = tokenize(M,        add_generation_prompt = false)   the whole conversation (input_ids)
 * Assistant message i is the token span [|P_i|, |Q_i|) of F. This needs the template to be prefix-stable: P_i must be a
 * prefix of Q_i and Q_i of F. Templates that rewrite earlier turns (e.g. ones that drop past reasoning) break that;
 * such a record is skipped and counted, never mislabelled. labels = input_ids inside the spans, -100 elsewhere
 * (unshifted, as Hugging Face causal LM losses expect). The span includes the template's end-of-turn tokens, so the
 * model learns to stop.
 */
import { readFileSync } from 'node:fs'
import { orderedPool } from './rollout.ts'
import type { ChatMessage, RolloutRecord, ToolDef } from './types.ts'

export const IGNORE_INDEX = -100

/** Reads a rollout JSONL file (blank lines skipped; a bad line names its number). */
export function readRecords(path: string): RolloutRecord[] {
  const out: RolloutRecord[] = []
  readFileSync(path, 'utf8').split('\n').forEach((line, i) => {
    if (!line.trim()) return
    try { out.push(JSON.parse(line) as RolloutRecord) } catch (e) { throw new Error(`${path}:${i + 1}: ${(e as Error).message}`) }
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
  families?: string[]
  sources?: RolloutRecord['source'][]
}

/** Keeps the records that pass every filter; `dropped` counts the first reason each other record failed. */
export function filterRecords(records: RolloutRecord[], f: FilterOptions = {}): { kept: RolloutRecord[]; dropped: Record<string, number> } {
  const dropped: Record<string, number> = {}
  const kept = records.filter((r) => {
    const why = !r.verdict ? 'no verdict'
      : (f.passedOnly ?? true) && !r.verdict.passed ? 'not passed'
      : f.minReward !== undefined && r.verdict.reward < f.minReward ? 'reward below minimum'
      : (f.noViolations ?? true) && r.verdict.violations.length > 0 ? 'safety violation'
      : f.maxInvalidToolCalls !== undefined && r.invalidToolCalls > f.maxInvalidToolCalls ? 'invalid tool calls'
      : f.families?.length && !f.families.includes(r.family) ? 'family'
      : f.sources?.length && !f.sources.includes(r.source) ? 'source'
      : !r.messages.some((m) => m.role === 'assistant') ? 'no assistant message'
      : undefined
    if (why) dropped[why] = (dropped[why] ?? 0) + 1
    return !why
  })
  return { kept, dropped }
}

/** The conversation up to its last assistant message (what follows it — the `done` call's "ok" — is not trained on). */
export function trainingMessages(messages: ChatMessage[]): ChatMessage[] {
  let last = -1
  messages.forEach((m, i) => { if (m.role === 'assistant') last = i })
  return messages.slice(0, last + 1)
}

/** OpenAI chat fine-tuning line: `{messages, tools}` (assistant tool calls carry JSON-string arguments). */
export function toOpenAI(r: RolloutRecord): { messages: Record<string, unknown>[]; tools: ToolDef[] } {
  const messages = trainingMessages(r.messages).map((m) => {
    if (m.role !== 'assistant') return { ...m } as Record<string, unknown>
    const out: Record<string, unknown> = { role: 'assistant' }
    if (m.content !== null && m.content !== '') out.content = m.content
    else if (!m.tool_calls?.length) out.content = ''
    if (m.tool_calls?.length) out.tool_calls = m.tool_calls
    return out
  })
  return { messages, tools: r.tools }
}

export type ShareGptTurn = { from: 'system' | 'human' | 'gpt' | 'function_call' | 'observation'; value: string }

const argsValue = (s: string): unknown => {
  try { return JSON.parse(s || '{}') } catch { return s }
}

/**
 * ShareGPT line (LLaMA-Factory's tool-calling layout): `{conversations: [{from, value}], tools}` where `tools` is a JSON
 * string of the function definitions; an assistant tool-call turn is `function_call` with `{"name","arguments"}` (a JSON
 * list when the turn made several calls) and the tool answers that follow are one `observation` (a JSON list of the
 * answers when there are several). Text an assistant wrote beside its tool calls is not kept (ShareGPT has no place for it).
 */
export function toShareGPT(r: RolloutRecord): { conversations: ShareGptTurn[]; tools: string } {
  const conv: ShareGptTurn[] = []
  const msgs = trainingMessages(r.messages)
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i]!
    if (m.role === 'system') conv.push({ from: 'system', value: m.content })
    else if (m.role === 'user') conv.push({ from: 'human', value: m.content })
    else if (m.role === 'assistant') {
      if (m.tool_calls?.length) {
        const calls = m.tool_calls.map((c) => ({ name: c.function.name, arguments: argsValue(c.function.arguments) }))
        conv.push({ from: 'function_call', value: JSON.stringify(calls.length === 1 ? calls[0] : calls) })
      } else conv.push({ from: 'gpt', value: m.content ?? '' })
    } else {
      const answers: string[] = []
      while (i < msgs.length && msgs[i]!.role === 'tool') answers.push((msgs[i++] as { content: string }).content)
      i--
      conv.push({ from: 'observation', value: answers.length === 1 ? answers[0]! : JSON.stringify(answers) })
    }
  }
  return { conversations: conv, tools: JSON.stringify(r.tools.map((t) => t.function)) }
}

/** Chat-template tokenization: messages (+ tools) → token ids. */
export type ChatTokenizer = (messages: Record<string, unknown>[], tools: ToolDef[], addGenerationPrompt: boolean) => Promise<number[]>

export class TemplateMismatch extends Error {}

const isPrefix = (p: number[], of: number[]) => p.length <= of.length && p.every((x, i) => of[i] === x)

/** `{input_ids, labels}` with labels only on assistant turns (see the method at the top of this file). */
export async function toTokens(r: RolloutRecord, tokenize: ChatTokenizer): Promise<{ task_id: string; input_ids: number[]; labels: number[]; assistant_spans: [number, number][] }> {
  const { messages, tools } = toOpenAI(r)
  const assistants = messages.flatMap((m, i) => (m.role === 'assistant' ? [i] : []))
  const full = await tokenize(messages, tools, false)
  const spans = await Promise.all(assistants.map(async (i): Promise<[number, number]> => {
    const [p, q] = await Promise.all([tokenize(messages.slice(0, i), tools, true), tokenize(messages.slice(0, i + 1), tools, false)])
    if (!isPrefix(p, q)) throw new TemplateMismatch(`message ${i}: the prompt with the generation prompt is not a prefix of the prompt with the assistant turn`)
    if (!isPrefix(q, full)) throw new TemplateMismatch(`message ${i}: the conversation up to this assistant turn is not a prefix of the whole conversation`)
    if (q.length === p.length) throw new TemplateMismatch(`message ${i}: the assistant turn renders to no tokens`)
    return [p.length, q.length]
  }))
  const labels = new Array<number>(full.length).fill(IGNORE_INDEX)
  for (const [a, b] of spans) for (let k = a; k < b; k++) labels[k] = full[k]!
  return { task_id: r.taskId, input_ids: full, labels, assistant_spans: spans }
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

export type ExportFormat = 'openai' | 'sharegpt' | 'tokens'
export type ExportResult = {
  read: number
  kept: number
  dropped: Record<string, number>
  lines: Partial<Record<ExportFormat, string[]>>
  /** Records left out of the token file, with why. */
  tokenSkipped: { taskId: string; index: number; reason: string }[]
}

/** Filters records and renders the requested formats (JSONL lines, in record order). */
export async function exportSft(records: RolloutRecord[], opts: { formats: ExportFormat[]; filter?: FilterOptions; tokenize?: ChatTokenizer; concurrency?: number; maxLength?: number }): Promise<ExportResult> {
  const { kept, dropped } = filterRecords(records, opts.filter)
  const res: ExportResult = { read: records.length, kept: kept.length, dropped, lines: {}, tokenSkipped: [] }
  if (opts.formats.includes('openai')) res.lines.openai = kept.map((r) => JSON.stringify(toOpenAI(r)))
  if (opts.formats.includes('sharegpt')) res.lines.sharegpt = kept.map((r) => JSON.stringify(toShareGPT(r)))
  if (opts.formats.includes('tokens')) {
    const tokenize = opts.tokenize
    if (!tokenize) throw new Error('the tokens format needs a /tokenize endpoint (vLLM): pass --tokenize-url or --base-url')
    const lines: string[] = []
    await orderedPool(kept.length, opts.concurrency ?? 4, async (i) => {
      try {
        const t = await toTokens(kept[i]!, tokenize)
        if (opts.maxLength !== undefined && t.input_ids.length > opts.maxLength) return { skip: `longer than ${opts.maxLength} tokens (${t.input_ids.length})` }
        return { line: JSON.stringify(t) }
      } catch (e) {
        if (e instanceof TemplateMismatch) return { skip: `chat template not prefix-stable: ${e.message}` }
        throw e
      }
    }, (out: { line?: string; skip?: string }, i) => {
      if (out.line) lines.push(out.line)
      else res.tokenSkipped.push({ taskId: kept[i]!.taskId, index: kept[i]!.index, reason: out.skip! })
    })
    res.lines.tokens = lines
  }
  return res
}
