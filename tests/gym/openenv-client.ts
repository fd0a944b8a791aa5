/**
 * An OpenEnv client written from OpenEnv's message definitions (core/env_server/types.py, mcp_types.py) and its
 * client (core/env_client.py, generic_client.py): `<base>/ws` with typed reset/step/state/close messages, and
 * the HTTP contract. It knows nothing of the gym beyond that wire contract.
 */
import WebSocket from 'ws'

export type StepResult = { observation: Record<string, any>; reward: number | null; done: boolean }

/** Like OpenEnv's GenericEnvClient: one WebSocket, one message in flight, errors raised. */
export class WsEnvClient {
  #ws!: WebSocket
  #pending: ((m: any) => void)[] = []
  constructor(readonly baseUrl: string) {}

  /** `convert_to_ws_url(base) + "/ws"`. */
  get wsUrl() {
    return `${this.baseUrl
      .replace(/\/+$/, '')
      .replace(/^http:/, 'ws:')
      .replace(/^https:/, 'wss:')}/ws`
  }

  async connect(headers: Record<string, string> = {}): Promise<this> {
    this.#ws = new WebSocket(this.wsUrl, { headers })
    this.#ws.on('message', (raw) => this.#pending.shift()?.(JSON.parse(raw.toString())))
    await new Promise<void>((resolve, reject) => {
      this.#ws.once('open', () => resolve())
      this.#ws.once('error', reject)
      this.#ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    })
    return this
  }

  async send(message: Record<string, unknown>): Promise<any> {
    const reply = new Promise<any>((resolve) => this.#pending.push(resolve))
    this.#ws.send(JSON.stringify(message))
    return reply
  }

  async #sendAndReceive(message: Record<string, unknown>) {
    const r = await this.send(message)
    if (r.type === 'error') throw new Error(`Server error: ${r.data?.message} (code: ${r.data?.code})`)
    return r
  }

  async reset(kwargs: Record<string, unknown> = {}): Promise<StepResult> {
    return parseResult((await this.#sendAndReceive({ type: 'reset', data: kwargs })).data)
  }
  async step(action: Record<string, unknown>): Promise<StepResult> {
    return parseResult((await this.#sendAndReceive({ type: 'step', data: action })).data)
  }
  async state(): Promise<Record<string, any>> {
    return (await this.#sendAndReceive({ type: 'state' })).data
  }
  async close(): Promise<void> {
    try {
      this.#ws.send(JSON.stringify({ type: 'close' }))
    } catch {
      /* best effort, as OpenEnv's client */
    }
    await new Promise<void>((resolve) => {
      if (this.#ws.readyState === WebSocket.CLOSED) return resolve()
      this.#ws.once('close', () => resolve())
      this.#ws.close()
    })
  }
}

const parseResult = (payload: any): StepResult => ({
  observation: payload?.observation ?? {},
  reward: payload?.reward ?? null,
  done: payload?.done ?? false,
})

/** The HTTP contract: POST /reset, POST /step, GET /state, with the episode named explicitly. */
export class HttpEnvClient {
  constructor(
    readonly baseUrl: string,
    readonly headers: Record<string, string> = {},
  ) {}
  async request(method: string, path: string, json?: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(this.baseUrl.replace(/\/+$/, '') + path, {
      method,
      headers: { ...this.headers, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: json !== undefined ? JSON.stringify(json) : undefined,
    })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : null }
  }
  async reset(body: Record<string, unknown> = {}): Promise<StepResult> {
    const r = await this.request('POST', '/reset', body)
    if (r.status !== 200) throw new Error(`reset: HTTP ${r.status} ${JSON.stringify(r.body)}`)
    return r.body
  }
  async step(episodeId: string, action: Record<string, unknown>): Promise<StepResult> {
    const r = await this.request('POST', '/step', { action, episode_id: episodeId, timeout_s: 30, request_id: 'r1' })
    if (r.status !== 200) throw new Error(`step: HTTP ${r.status} ${JSON.stringify(r.body)}`)
    return r.body
  }
  async state(episodeId: string) {
    return (await this.request('GET', `/state?episode_id=${encodeURIComponent(episodeId)}`)).body
  }
}
