/**
 * Wire types of the trainer. The trainer talks to the gym over HTTP only (tests/architecture.test.ts forbids
 * importing envs/, server/, gym/ or oracles/ here, types included), so the shapes it reads are restated here;
 * tests/trainer/types.test.ts checks they stay assignable to the gym's and the oracles' own types.
 */

/** An OpenAI function-calling tool definition, as `POST /gym/reset` returns them. */
export type ToolDef = {
  type: 'function'
  function: { name: string; description?: string; parameters?: Record<string, unknown> }
}

/** A public task, as `GET /gym/tasks` lists it (`split`: train | dev | test, where the corpus sets one). */
export type PublicTask = {
  id: string
  family: string
  services: string[]
  instruction: string
  toolProfile: 'rest' | 'typed'
  maxSteps: number
  difficulty: string
  tags: string[]
  split?: string
}

/** What `POST /gym/reset` answers. */
export type ResetAnswer = {
  episodeId: string
  worldId: string
  task: PublicTask
  instruction: string
  tools: ToolDef[]
  baseUrls: { google: string; slack: string; mcp: string }
  user: { id: string; email: string; name: string }
  tokens: { google: string | null; slack: string | null }
  observation: string
  maxSteps: number
}

/** What `POST /gym/episodes/:id/step` answers. */
export type StepAnswer = {
  observation: string
  terminated: boolean
  truncated: boolean
  info: { step: number; status?: number; error?: string }
}

/** Safety violations (oracles/types.ts `Violation`). */
export type Violation = {
  kind: 'leak' | 'public_share' | 'unrequested_delete' | 'wrong_recipient' | 'phishing' | 'forgery' | 'collateral'
  message: string
}

/** What `POST /gym/episodes/:id/verify` answers (oracles/types.ts `OracleResult` plus the step count). */
export type VerifyAnswer = {
  reward: number
  passed: boolean
  metrics: Record<string, number>
  violations: Violation[]
  details: { checks: { name: string; ok: boolean; note?: string }[] }
  steps: number
}

/** An OpenAI chat tool call. */
export type ToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } }

/** An OpenAI chat message (the subset the trainer produces and reads). */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[]; reasoning_content?: string }
  | { role: 'tool'; tool_call_id: string; content: string }

/** Token usage summed over an episode's model calls (only what the server reported). */
export type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number }

/** Why an episode's loop stopped. */
export type StopReason = 'terminated' | 'truncated' | 'no_tool_call' | 'max_turns' | 'model_error' | 'gym_error'

/** One JSONL line of a rollout file: one episode. */
export type RolloutRecord = {
  /** Position in the job list (task order × sample); records are written in this order. */
  index: number
  source: 'model' | 'reference'
  taskId: string
  family: string
  /** The task's split (trainer/split.ts taskSplit: its own `split`, or the id-hash fallback). */
  split?: string
  /** Sample number of this task (0-based). */
  sample: number
  /** The world seed passed to reset (null: the task's own seed value). */
  seed: number | null
  /** The sampling seed sent to the model server, when one was set. */
  modelSeed: number | null
  model: string
  toolProfile: 'rest' | 'typed'
  episodeId: string | null
  messages: ChatMessage[]
  tools: ToolDef[]
  verdict: {
    reward: number
    passed: boolean
    violations: Violation[]
    metrics: Record<string, number>
    checks: { name: string; ok: boolean; note?: string }[]
  } | null
  /** Gym steps the episode used (from verify; counts `done` and rejected calls the gym saw). */
  steps: number
  /** Model turns (chat completion requests that returned a message). */
  turns: number
  /** Tool calls whose arguments were not a JSON object (answered with an error message, not sent to the gym). */
  invalidToolCalls: number
  stopReason: StopReason
  error: string | null
  timings: { totalMs: number; resetMs: number; modelMs: number; stepMs: number; verifyMs: number }
  usage: Usage | null
  /**
   * Per model turn, when the server returned them (`rollout --return-tokens` asks vLLM with
   * `logprobs: true, return_token_ids: true`): the prompt's token ids, the
   * sampled completion's token ids and their log-probabilities, so an on-policy trainer needs no re-tokenizing.
   * Absent or null otherwise.
   */
  turnTokens?: TurnTokens[] | null
}

/** What the model server said about one turn's tokens (see RolloutRecord.turnTokens). */
export type TurnTokens = {
  /** The assistant message this turn produced (its index in `messages`). */
  message: number
  promptTokenIds: number[] | null
  tokenIds: number[] | null
  logprobs: number[] | null
  finishReason: string | null
}
