/**
 * Token ids with assistant-only labels, from the model's own chat template (offline, trainer/chat-template.ts, or
 * vLLM's `/tokenize`). Two ways to place the labels; `auto` picks per record and the manifest counts both.
 *
 * conversation — one example per trajectory (the prefix method). For every assistant message i of M:
 *   P_i = tokens(M[0..i),  add_generation_prompt)   the context up to and including the assistant header
 *   Q_i = tokens(M[0..i])                            the same plus assistant message i as the template renders it
 *   F   = tokens(M)                                  the whole conversation (input_ids)
 *   Assistant message i is the span [|P_i|, |Q_i|) of F. Valid only when the template is prefix-stable (P_i is a
 *   prefix of Q_i and Q_i of F), as Qwen2.5's is.
 *
 * per-turn — one example per assistant turn. Templates that render the last assistant turn differently from the
 *   earlier ones are not prefix-stable: Qwen3 writes `<think>\n\n</think>\n\n` into the last assistant turn only
 *   (and drops the reasoning of turns before the last user query), so turn i of F is not what the model produced
 *   at turn i. Here the example of turn i is Q_i itself: the history exactly as the model was prompted with it at
 *   inference (P_i, add_generation_prompt, with the same template kwargs) followed by turn i as the template renders
 *   a final turn; the loss is on [|P_i|, |Q_i|) only. P_i must still be a prefix of Q_i, or the record is skipped.
 *
 * Thinking: the rollout does not send reasoning back to the model, so history turns never carry `reasoning_content`.
 * The target turn keeps it (`keep`, rendered where the template has a place for it, e.g. Qwen3's `<think>` block)
 * or loses it together with any `<think>…</think>` written into its content (`strip`).
 *
 * Labels are `input_ids` inside the spans and -100 elsewhere, unshifted (Hugging Face causal-LM losses shift). A span
 * ends with the template's end-of-turn tokens, so the model learns to stop.
 */
import type { ChatTokenizer } from './export.ts'
import type { ToolDef } from './types.ts'

export const IGNORE_INDEX = -100

export type MaskMode = 'auto' | 'conversation' | 'per-turn'
export type Thinking = 'keep' | 'strip'

/** One training example of the tokens export. */
export type TokenExample = {
  task_id: string
  /** The rollout record's index. */
  record: number
  /** How the labels were placed. */
  mask: 'conversation' | 'per-turn'
  /** Per-turn: which assistant message of the conversation is the target (its index in `messages`). */
  turn: number | null
  input_ids: number[]
  labels: number[]
  assistant_spans: [number, number][]
}

export class TemplateMismatch extends Error {}

type Msg = Record<string, unknown>

const isPrefix = (p: number[], of: number[]) => p.length <= of.length && p.every((x, i) => of[i] === x)

/** An assistant message without its reasoning: the `reasoning_content` field and a `<think>…</think>` block. */
export function stripThinking(m: Msg): Msg {
  const { reasoning_content: _r, reasoning: _s, ...rest } = m
  const c = rest.content
  if (typeof c === 'string' && c.includes('</think>')) {
    rest.content = c.slice(c.lastIndexOf('</think>') + 8).replace(/^\n+/, '')
  }
  return rest
}

/** The history as the model was prompted with it: assistant turns carry no reasoning field (it is never sent back). */
const asSent = (m: Msg): Msg => {
  if (m.role !== 'assistant') return m
  const { reasoning_content: _r, reasoning: _s, ...rest } = m
  return rest
}

const target = (m: Msg, thinking: Thinking): Msg => (thinking === 'strip' ? stripThinking(m) : m)

function labelsFor(ids: number[], spans: [number, number][]): number[] {
  const labels = new Array<number>(ids.length).fill(IGNORE_INDEX)
  for (const [a, b] of spans) for (let k = a; k < b; k++) labels[k] = ids[k]!
  return labels
}

/** The conversation example (prefix method); throws TemplateMismatch when the template is not prefix-stable. */
type Example = Omit<TokenExample, 'task_id' | 'record'>

export async function conversationExample(
  messages: Msg[],
  tools: ToolDef[],
  tokenize: ChatTokenizer,
  thinking: Thinking,
): Promise<Example> {
  const msgs = messages.map((m) => (m.role === 'assistant' ? target(m, thinking) : m))
  const assistants = msgs.flatMap((m, i) => (m.role === 'assistant' ? [i] : []))
  // The model never saw the reasoning of its earlier turns (it is not sent back): one sequence cannot show it.
  const reasoned = assistants.slice(0, -1).find((i) => msgs[i]!.reasoning_content || msgs[i]!.reasoning)
  if (reasoned !== undefined) {
    throw new TemplateMismatch(`message ${reasoned}: kept reasoning of an earlier turn was never in the model's input`)
  }
  const full = await tokenize(msgs, tools, false)
  // Turn by turn, so a template that is not prefix-stable is found at its first turn.
  const spans: [number, number][] = []
  for (const i of assistants) {
    const p = await tokenize(msgs.slice(0, i), tools, true)
    const q = await tokenize(msgs.slice(0, i + 1), tools, false)
    const fail = (why: string) => new TemplateMismatch(`message ${i}: ${why}`)
    if (!isPrefix(p, q)) throw fail('the prompt with the generation prompt is not a prefix of the prompt with the turn')
    if (!isPrefix(q, full)) throw fail('the conversation up to this turn is not a prefix of the whole conversation')
    if (q.length === p.length) throw new TemplateMismatch(`message ${i}: the assistant turn renders to no tokens`)
    spans.push([p.length, q.length])
  }
  return { mask: 'conversation', turn: null, input_ids: full, labels: labelsFor(full, spans), assistant_spans: spans }
}

/** One example per assistant turn (see the file comment); throws TemplateMismatch when a turn cannot be isolated. */
export async function perTurnExamples(
  messages: Msg[],
  tools: ToolDef[],
  tokenize: ChatTokenizer,
  thinking: Thinking,
): Promise<Example[]> {
  const assistants = messages.flatMap((m, i) => (m.role === 'assistant' ? [i] : []))
  return Promise.all(
    assistants.map(async (i) => {
      const history = messages.slice(0, i).map(asSent)
      const turn = target(messages[i]!, thinking)
      const [p, q] = await Promise.all([tokenize(history, tools, true), tokenize([...history, turn], tools, false)])
      if (!isPrefix(p, q)) {
        throw new TemplateMismatch(
          `message ${i}: the generation prompt is not a prefix of the rendered turn ` +
            "(e.g. reasoning kept while the template's generation prompt closes the think block)",
        )
      }
      if (q.length === p.length) throw new TemplateMismatch(`message ${i}: the assistant turn renders to no tokens`)
      const spans: [number, number][] = [[p.length, q.length]]
      return { mask: 'per-turn' as const, turn: i, input_ids: q, labels: labelsFor(q, spans), assistant_spans: spans }
    }),
  )
}

/** The examples of one conversation under a mask mode (`auto`: conversation when prefix-stable, else per-turn). */
export async function tokenExamples(
  messages: Msg[],
  tools: ToolDef[],
  tokenize: ChatTokenizer,
  opts: { mask?: MaskMode; thinking?: Thinking } = {},
): Promise<Example[]> {
  const mask = opts.mask ?? 'auto'
  const thinking = opts.thinking ?? 'strip'
  if (mask === 'per-turn') return perTurnExamples(messages, tools, tokenize, thinking)
  try {
    return [await conversationExample(messages, tools, tokenize, thinking)]
  } catch (e) {
    if (mask === 'conversation' || !(e instanceof TemplateMismatch)) throw e
    return perTurnExamples(messages, tools, tokenize, thinking)
  }
}
