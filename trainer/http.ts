import type {
  ChatMessage,
  PublicTask,
  ResetAnswer,
  StepAnswer,
  ToolCall,
  ToolDef,
  Usage,
  VerifyAnswer,
} from './types.ts'

/** An HTTP answer outside 2xx (or no answer at all: status 0). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message)
  }
}

type Json = Record<string, unknown>

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text()
  if (!text) return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** undici's error for a connection the other side closed (or reset) before any answer came. */
function closedUnderUs(e: unknown): boolean {
  const code = (e as { cause?: { code?: unknown } } | undefined)?.cause?.code
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET'
}

const brief = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? '')).slice(0, 300)

/** The gym's HTTP routes on the control listener (admin token). Nothing here runs the gym in process. */
export class GymClient {
  readonly baseUrl: string
  constructor(
    baseUrl: string,
    private readonly adminToken = '',
    private readonly timeoutMs = 60_000,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '')
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (this.adminToken) headers.authorization = `Bearer ${this.adminToken}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const send = () =>
      fetch(this.baseUrl + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      })
    let res: Response
    try {
      res = await send().catch((e: unknown) => {
        // A pooled keep-alive connection the server closed as idle just as this request went out (a client whose
        // event loop was busy past the server's keep-alive timeout): the server read nothing. Sent again once when
        // repeating it is harmless: a read, or a reset (an extra episode is reaped unused). Never a step.
        if (closedUnderUs(e) && (method === 'GET' || path === '/gym/reset')) return send()
        throw e
      })
    } catch (e) {
      throw new HttpError(0, null, `gym ${method} ${path}: ${(e as Error).message}`)
    }
    const data = await readBody(res)
    if (!res.ok) throw new HttpError(res.status, data, `gym ${method} ${path}: HTTP ${res.status} ${brief(data)}`)
    return data as T
  }

  async tasks(family?: string): Promise<PublicTask[]> {
    return (
      await this.call<{ tasks: PublicTask[] }>(
        'GET',
        `/gym/tasks${family ? `?family=${encodeURIComponent(family)}` : ''}`,
      )
    ).tasks
  }
  reset(body: {
    taskId?: string
    task?: unknown
    seed?: number
    toolProfile?: 'rest' | 'typed'
  }): Promise<ResetAnswer> {
    return this.call('POST', '/gym/reset', body)
  }
  step(episodeId: string, tool: string, args: Record<string, unknown>): Promise<StepAnswer> {
    return this.call('POST', `/gym/episodes/${encodeURIComponent(episodeId)}/step`, { tool, arguments: args })
  }
  verify(episodeId: string): Promise<VerifyAnswer> {
    return this.call('POST', `/gym/episodes/${encodeURIComponent(episodeId)}/verify`)
  }
  async close(episodeId: string): Promise<void> {
    await this.call('DELETE', `/gym/episodes/${encodeURIComponent(episodeId)}`)
  }
}

export type RetryOptions = {
  /** Per-request timeout. */
  timeoutMs?: number
  /** Retries after the first try, on 429, 5xx, timeouts and connection errors. */
  retries?: number
  /** First backoff; doubles each retry (a Retry-After header wins when it is longer). */
  backoffMs?: number
  maxBackoffMs?: number
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** POST JSON with a timeout and retries with exponential backoff on 429/5xx/network errors; other 4xx throw at once. */
export async function postJsonWithRetry(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  opts: RetryOptions = {},
): Promise<{ data: unknown; attempts: number }> {
  const { timeoutMs = 120_000, retries = 4, backoffMs = 1000, maxBackoffMs = 30_000 } = opts
  let last: HttpError | undefined
  let retryAfterMs = 0
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) {
      const exp = Math.min(maxBackoffMs, backoffMs * 2 ** (attempt - 1))
      await sleep(Math.max(retryAfterMs, exp * (0.8 + 0.4 * Math.random())))
      retryAfterMs = 0
    }
    let res: Response
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (e) {
      last = new HttpError(
        0,
        null,
        `POST ${url}: ${(e as Error).name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : (e as Error).message}`,
      )
      continue
    }
    const data = await readBody(res)
    if (res.ok) return { data, attempts: attempt + 1 }
    const err = new HttpError(res.status, data, `POST ${url}: HTTP ${res.status} ${brief(data)}`)
    if (res.status !== 429 && res.status < 500) throw err
    const ra = res.headers.get('retry-after')
    retryAfterMs = ra && /^\d+(\.\d+)?$/.test(ra) ? Math.min(maxBackoffMs, Number(ra) * 1000) : 0
    last = err
  }
  throw new HttpError(
    last?.status ?? 0,
    last?.body ?? null,
    `${last?.message ?? `POST ${url}`} (gave up after ${retries + 1} tries)`,
  )
}

/** A chat completion request's knobs. */
export type ChatOptions = RetryOptions & {
  baseUrl: string
  model: string
  apiKey?: string
  temperature?: number
  maxTokens?: number
  /** Extra fields merged into every request body (e.g. `{"top_p":0.95}` or vLLM's `chat_template_kwargs`). */
  extraBody?: Record<string, unknown>
  /** Ask for the turn's token ids and log-probabilities (vLLM: `logprobs: true`, `return_token_ids: true`). */
  returnTokens?: boolean
}

/** The token ids and log-probabilities a server returned for one completion (null where it returned none). */
export type ChatTokens = { promptTokenIds: number[] | null; tokenIds: number[] | null; logprobs: number[] | null }

/** One assistant answer, normalised to string arguments and ids on every tool call. */
export type ChatAnswer = {
  message: { content: string | null; tool_calls: ToolCall[]; reasoning_content?: string }
  usage: Usage | null
  finishReason: string | null
  attempts: number
  tokens: ChatTokens | null
}

const intList = (v: unknown): number[] | null =>
  Array.isArray(v) && v.every((x) => Number.isInteger(x)) ? (v as number[]) : null

/** Token ids and logprobs from a chat completion answer (vLLM's fields; OpenAI's `logprobs.content`). */
export function chatTokens(d: Json, choice: Json | undefined): ChatTokens | null {
  const lp = (choice?.logprobs as Json | null | undefined)?.content
  const logprobs =
    Array.isArray(lp) && lp.every((x) => typeof (x as Json)?.logprob === 'number')
      ? (lp as Json[]).map((x) => Number(x.logprob))
      : null
  const t = {
    promptTokenIds: intList(d.prompt_token_ids ?? choice?.prompt_token_ids),
    tokenIds: intList(choice?.token_ids),
    logprobs,
  }
  return t.promptTokenIds || t.tokenIds || t.logprobs ? t : null
}

/** `POST {baseUrl}/chat/completions` on any OpenAI-compatible server (vLLM, SGLang, llama.cpp, OpenAI …). */
export async function chatCompletion(
  opts: ChatOptions,
  messages: ChatMessage[],
  tools: ToolDef[],
  extra: { seed?: number } = {},
): Promise<ChatAnswer> {
  // Reasoning is kept in the record but never sent back (Qwen3's guidance; trainer/tokens.ts relies on it).
  const sent = messages.map((m) =>
    m.role === 'assistant' && 'reasoning_content' in m ? (({ reasoning_content: _r, ...rest }) => rest)(m) : m,
  )
  const tokenAsk = opts.returnTokens ? { logprobs: true, return_token_ids: true } : {}
  const body: Json = {
    model: opts.model,
    messages: sent,
    tools,
    tool_choice: 'auto',
    ...tokenAsk,
    ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
    ...(opts.maxTokens !== undefined ? { max_tokens: opts.maxTokens } : {}),
    ...(extra.seed !== undefined ? { seed: extra.seed } : {}),
    ...opts.extraBody,
  }
  const headers: Record<string, string> = opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}
  const { data, attempts } = await postJsonWithRetry(
    `${opts.baseUrl.replace(/\/+$/, '')}/chat/completions`,
    body,
    headers,
    opts,
  )
  const d = (data ?? {}) as Json
  const choice = (Array.isArray(d.choices) ? d.choices[0] : undefined) as Json | undefined
  const msg = (choice?.message ?? null) as Json | null
  if (!msg || typeof msg !== 'object')
    throw new HttpError(200, data, `model server answered no choices[0].message: ${brief(data)}`)
  const calls: ToolCall[] = []
  const raw = Array.isArray(msg.tool_calls) ? (msg.tool_calls as Json[]) : []
  raw.forEach((c, i) => {
    const fn = (c?.function ?? {}) as Json
    const args = fn.arguments
    calls.push({
      id: typeof c?.id === 'string' && c.id ? c.id : `call_${i}`,
      type: 'function',
      function: {
        name: typeof fn.name === 'string' ? fn.name : '',
        arguments: typeof args === 'string' ? args : args === undefined || args === null ? '' : JSON.stringify(args),
      },
    })
  })
  const u = d.usage as Json | undefined
  const usage =
    u && typeof u.prompt_tokens === 'number'
      ? {
          prompt_tokens: Number(u.prompt_tokens),
          completion_tokens: Number(u.completion_tokens ?? 0),
          total_tokens: Number(u.total_tokens ?? Number(u.prompt_tokens) + Number(u.completion_tokens ?? 0)),
        }
      : null
  const reasoning =
    typeof msg.reasoning_content === 'string'
      ? msg.reasoning_content
      : typeof msg.reasoning === 'string'
        ? msg.reasoning
        : undefined
  const message = {
    content: typeof msg.content === 'string' ? msg.content : null,
    tool_calls: calls,
    ...(reasoning ? { reasoning_content: reasoning } : {}),
  }
  return {
    message,
    tokens: chatTokens(d, choice),
    usage,
    finishReason: typeof choice?.finish_reason === 'string' ? choice.finish_reason : null,
    attempts,
  }
}

/** Where vLLM serves `/tokenize`: the server root, not under `/v1`. */
export function tokenizeUrlFor(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/tokenize`
}

/** vLLM `POST /tokenize` with chat messages: the chat template's token ids. */
export async function tokenizeChat(
  url: string,
  req: {
    model?: string
    messages: unknown[]
    tools?: ToolDef[]
    addGenerationPrompt: boolean
    chatTemplateKwargs?: Record<string, unknown>
  },
  opts: RetryOptions & { apiKey?: string } = {},
): Promise<number[]> {
  const body: Json = {
    messages: req.messages,
    add_generation_prompt: req.addGenerationPrompt,
    add_special_tokens: false,
  }
  if (req.model) body.model = req.model
  if (req.tools?.length) body.tools = req.tools
  if (req.chatTemplateKwargs) body.chat_template_kwargs = req.chatTemplateKwargs
  const { data } = await postJsonWithRetry(
    url,
    body,
    opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {},
    opts,
  )
  const tokens = (data as Json | null)?.tokens
  if (!Array.isArray(tokens) || !tokens.every((t) => Number.isInteger(t)))
    throw new HttpError(200, data, `tokenize answered no tokens: ${brief(data)}`)
  return tokens as number[]
}
