import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startServer, type Running } from '../../server/main.ts'
import { fill, pick } from '../../gym/program-grammar.ts'
import { loadCorpus } from '../../gym/corpus.ts'
import type { TaskSpec } from '../../gym/task.ts'

export const ADMIN = 'trainer-test-token'

/** The real gym server (agent + control listeners) on loopback ports. */
export function startGym(): Promise<Running> {
  return startServer({ host: '127.0.0.1', port: 0, controlPort: 0, adminToken: ADMIN, worlds: [] })
}

export const corpus = loadCorpus()

/** Tasks of a family whose programs a fake model can replay (no control-side `$rfc822` macro). */
export function replayable(family: string): TaskSpec[] {
  return corpus.filter((t) => t.family === family && !JSON.stringify(t.reference).includes('$rfc822'))
}

/** Whether a reset's first observation (`You are Name <email>. … Task: instruction`) is this task's. */
export function isTaskObservation(task: TaskSpec, text: string): boolean {
  const users =
    typeof task.seed === 'object' ? (task.seed.users as { id: string; email: string }[] | undefined) : undefined
  const email = users?.find((u) => u.id === task.actor)?.email
  return text.endsWith(`Task: ${task.instruction}`) && (!email || text.includes(`<${email}>`))
}

type Msg = {
  role: string
  content?: string | null
  tool_calls?: { id: string; function: { name: string; arguments: string } }[]
  tool_call_id?: string
}
type Step = TaskSpec['reference'][number]

/**
 * The next tool call of a solution program, given the conversation so far: the k-th assistant turn plays step k,
 * with `{{bindings}}` read from the tool answers (the observations the gym returned) like gym/program.ts does.
 * After the program: `done`. Stateless, so concurrent episodes never mix.
 */
export function nextProgramCall(program: Step[], messages: Msg[]): { name: string; arguments: string } {
  const vars: Record<string, unknown> = {}
  const turns = messages.filter((m) => m.role === 'assistant')
  turns.forEach((a, k) => {
    const step = program[k]
    if (!step?.save) return
    const answer = messages.find((m) => m.role === 'tool' && m.tool_call_id === a.tool_calls?.[0]?.id)
    const obs = JSON.parse(answer!.content!) as { body: unknown }
    for (const [name, path] of Object.entries(step.save))
      if (path)
        vars[name] =
          path === '$text' ? (typeof obs.body === 'string' ? obs.body : JSON.stringify(obs.body)) : pick(obs.body, path)
  })
  const step = program[turns.length]
  if (!step) return { name: 'done', arguments: '{"summary":"finished"}' }
  return { name: step.tool, arguments: JSON.stringify(fill(step.args, vars)) }
}

export type FakeRequest = { path: string; body: Record<string, unknown>; headers: IncomingMessage['headers'] }
/**
 * What a scripted model answers: a chat message, or an HTTP error (status + optional headers), after an optional delay.
 */
export type FakeReply = {
  message?: Record<string, unknown>
  usage?: Record<string, number>
  choice?: Record<string, unknown>
  top?: Record<string, unknown>
  status?: number
  headers?: Record<string, string>
  delayMs?: number
  error?: string
}

/**
 * A small OpenAI-compatible server: `POST /v1/chat/completions` answers what `script(model, body, n)` says (n: the
 * request's number for that model), and `POST /tokenize` a byte-level tokenization of `renderChat` (vLLM's shape).
 */
export async function fakeModelServer(script: (model: string, body: Record<string, unknown>, n: number) => FakeReply) {
  const requests: FakeRequest[] = []
  const counts = new Map<string, number>()
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    let body: Record<string, unknown> = {}
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    } catch {
      /* empty */
    }
    requests.push({ path: req.url ?? '', body, headers: req.headers })
    const send = (status: number, data: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers })
      res.end(JSON.stringify(data))
    }
    if (req.method === 'POST' && req.url === '/tokenize') {
      const text = renderChat(
        body.messages as Msg[],
        (body.tools as unknown[]) ?? [],
        body.add_generation_prompt !== false,
      )
      const tokens = [...Buffer.from(text, 'utf8')]
      return send(200, { count: tokens.length, max_model_len: 1 << 20, tokens })
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
      return send(404, { error: { message: 'not found' } })
    const model = String(body.model)
    const n = (counts.get(model) ?? 0) + 1
    counts.set(model, n)
    const r = script(model, body, n)
    if (r.delayMs) await new Promise((ok) => setTimeout(ok, r.delayMs))
    if (res.destroyed) return
    if (r.status && r.status !== 200)
      return send(r.status, { error: { message: r.error ?? `scripted ${r.status}` } }, r.headers)
    send(200, {
      id: `cmpl-${n}`,
      object: 'chat.completion',
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', ...r.message },
          finish_reason: r.message?.tool_calls ? 'tool_calls' : 'stop',
          ...r.choice,
        },
      ],
      ...(r.usage ? { usage: r.usage } : {}),
      ...r.top,
    })
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()))
  const port = (server.address() as AddressInfo).port
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections()
        server.close(() => ok())
      }),
  }
}

/**
 * A toy chat template: `<|tools|>…`, then `<|role|>content[tool calls]<|end|>\n` per message;
 * generation prompt `<|assistant|>`.
 */
export function renderChat(messages: Msg[], tools: unknown[], addGenerationPrompt: boolean): string {
  let out = tools.length ? `<|tools|>${JSON.stringify(tools)}<|end|>\n` : ''
  for (const m of messages) out += renderMessage(m)
  return addGenerationPrompt ? out + '<|assistant|>' : out
}

export function renderMessage(m: Msg): string {
  const calls = m.tool_calls?.length
    ? m.tool_calls.map((c) => `<call>${c.function.name}(${c.function.arguments})</call>`).join('')
    : ''
  const id = m.role === 'tool' ? `[${m.tool_call_id}]` : ''
  return `<|${m.role}|>${id}${m.content ?? ''}${calls}<|end|>\n`
}

/** A tool call in an assistant message. */
export const toolCall = (id: string, name: string, args: string) => ({
  id,
  type: 'function',
  function: { name, arguments: args },
})
