/**
 * OpenEnv's WebSocket session protocol at `<base>/ws`, and the per-environment keys that open it without the admin
 * token. Client messages: `{type: "reset", data: {seed?, episode_id?, …}}`, `{type: "step", data: <action>}`,
 * `{type: "state"}`, `{type: "close"}`, `{type: "mcp", data: <JSON-RPC>}`. Server messages:
 * `{type: "observation", data: {observation, reward, done}}`, `{type: "state", data: {episode_id, step_count}}`,
 * `{type: "mcp", data: <JSON-RPC reply>}`, `{type: "error", data: {message, code}}`. Each connection owns its
 * episode: a reset replaces it, and close or disconnect frees its world.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import type { Gym } from './index.ts'
import { OpenEnv, OpenEnvError, openEnvApp, type OpenEnvScope } from './openenv.ts'
import { handleMcpMessage } from './mcp.ts'
import { loadRouters } from '../server/routers.ts'
import { LIMITS, nestedDeeperThan } from '../server/app.ts'
import { openEnvKeyProblem } from './openenv-key.ts'

/** Largest WebSocket message accepted (OpenEnv's client default is 100 MB; tool calls are far smaller). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024

type KeyEntry = { scope: OpenEnvScope; env: OpenEnv; app: ReturnType<typeof openEnvApp>; sockets: number }

const digest = (key: string) => createHash('sha256').update(key).digest('hex')

/** Per-environment keys: each opens one OpenEnv scope at `/openenv/<key>` (HTTP and `/ws`), nothing else. */
export class OpenEnvKeys {
  readonly #byDigest = new Map<string, KeyEntry>()
  /** `defaults` apply to every key's scope (e.g. the agent port's URL). */
  constructor(
    readonly gym: Gym,
    readonly defaults: OpenEnvScope = {},
  ) {}

  /** Registers a key (a given one, e.g. from `--openenv-key`, or a fresh 32-byte random one) for a scope. */
  add(scope: OpenEnvScope = {}, key = randomBytes(32).toString('base64url')): string {
    const problem = openEnvKeyProblem(key)
    if (problem) throw new Error(problem)
    const full = { ...this.defaults, ...scope }
    const env = new OpenEnv(this.gym, full)
    this.#byDigest.set(digest(key), { scope: full, env, app: openEnvApp(env), sockets: 0 })
    return key
  }

  find(key: string): KeyEntry | undefined {
    return this.#byDigest.get(digest(key))
  }

  /** Revokes a key and ends its HTTP episodes. */
  revoke(key: string): boolean {
    const entry = this.find(key)
    if (!entry) return false
    entry.env.closeAll()
    this.#byDigest.delete(digest(key))
    return true
  }
}

/** Messages of one connection that may wait to run; one more closes the connection. */
export const MAX_PENDING = 16

type Outgoing = { type: 'observation' | 'state' | 'mcp' | 'error'; data: Record<string, unknown> }

/** Runs the session protocol on one connection; the connection's episodes live in their own namespace. */
export function serveSession(ws: WebSocket, gym: Gym, scope: OpenEnvScope, onEnd: () => void = () => {}): void {
  const env = new OpenEnv(gym, { ...scope, maxEpisodes: 1 })
  let current: string | undefined
  let queue = Promise.resolve()
  const send = (m: Outgoing) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m))
  }
  const fail = (message: string, code: string, extra: Record<string, unknown> = {}) =>
    send({ type: 'error', data: { message, code, ...extra } })

  const handle = async (raw: RawData) => {
    let msg: Record<string, unknown>
    const text = raw.toString()
    // Refused before parsing: an error that echoed such a message back would overflow the stack in a reply.
    if (nestedDeeperThan(text, LIMITS.messageDepth))
      return fail(`Invalid JSON: nested deeper than ${LIMITS.messageDepth} levels`, 'INVALID_JSON')
    try {
      msg = JSON.parse(text)
    } catch (e) {
      return fail(`Invalid JSON: ${(e as Error).message}`, 'INVALID_JSON')
    }
    if (!msg || typeof msg !== 'object' || Array.isArray(msg))
      return fail('Invalid message: expected an object with a type', 'VALIDATION_ERROR')
    const data = msg.data
    try {
      switch (msg.type) {
        case 'reset': {
          if (data !== undefined && (typeof data !== 'object' || data === null || Array.isArray(data)))
            return fail('Invalid message: data must be an object', 'VALIDATION_ERROR')
          if (current) env.close(current)
          // A server imports the services' routes on first use; typed tools read them (server/routers.ts).
          await loadRouters()
          const { live, response } = env.reset((data ?? {}) as Record<string, unknown>)
          current = live.name
          return send({ type: 'observation', data: response })
        }
        case 'step': {
          if (!data || typeof data !== 'object' || Array.isArray(data))
            return fail('Invalid message: data (the action) must be an object', 'VALIDATION_ERROR')
          if (!current) return fail('no episode on this connection: send reset first', 'EXECUTION_ERROR')
          return send({ type: 'observation', data: await env.step(env.get(current), data) })
        }
        case 'state':
          if (!current) return send({ type: 'state', data: { episode_id: null, step_count: 0 } })
          return send({ type: 'state', data: env.state(env.get(current)) })
        case 'close':
          if (current) env.close(current)
          current = undefined
          ws.close(1000)
          return
        case 'mcp': {
          if (!current) return fail('no episode on this connection: send reset first', 'EXECUTION_ERROR')
          const reply = await handleMcpMessage(env.get(current).ep, (data ?? {}) as Record<string, unknown>)
          return send({
            type: 'mcp',
            data: (reply ?? { jsonrpc: '2.0', id: null, result: {} }) as Record<string, unknown>,
          })
        }
        default:
          return fail(`Unknown message type: ${String(msg.type)}`, 'UNKNOWN_TYPE')
      }
    } catch (e) {
      if (e instanceof OpenEnvError)
        return fail(e.message, e.code, typeof e.detail === 'string' ? {} : { errors: e.detail })
      return fail((e as Error).message, 'EXECUTION_ERROR')
    }
  }

  // Whatever a message's handling throws past its own error replies (a reply that cannot be serialised or sent) is
  // answered here: a rejection left in the queue would skip every later message and, unhandled, stop the process.
  const settle = (e: unknown) => {
    try {
      fail(`Internal error: ${e instanceof Error ? e.message : String(e)}`, 'EXECUTION_ERROR')
    } catch {
      // The connection cannot take a reply; the next message still runs.
    }
  }
  // Messages run one at a time, and at most MAX_PENDING wait. A client that sends more without reading the replies
  // is told so and disconnected (close code 1008), and what still waits is dropped: before, a flood of resets queued
  // without bound and every one ran, for minutes after the client had gone.
  let pending = 0
  ws.on('message', (raw) => {
    if (ws.readyState !== ws.OPEN) return
    if (++pending > MAX_PENDING) {
      fail(`More than ${MAX_PENDING} messages are waiting: read the replies before sending more`, 'TOO_MANY_MESSAGES')
      ws.close(1008, 'too many messages waiting')
      return
    }
    queue = queue
      .then(() => (ws.readyState === ws.OPEN ? handle(raw) : undefined))
      .catch(settle)
      .finally(() => pending--)
  })
  ws.on('close', () => {
    queue = queue
      .then(() => {
        env.closeAll()
        onEnd()
      })
      .catch(() => {})
  })
}

function reject(socket: Duplex, status: number, reason: string) {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
}

/**
 * Accepts WebSocket upgrades on a listener: `/openenv/<key>/ws` with a registered key, and `/ws` with the admin
 * token as a Bearer header (operators' clients that can set headers). Anything else is refused before upgrading.
 */
export function attachOpenEnvWebSocket(
  server: Server,
  gym: Gym,
  keys: OpenEnvKeys,
  opts: { adminToken?: string; adminScope?: OpenEnvScope } = {},
) {
  const { wss, upgrade } = openEnvUpgrades(gym, keys, opts)
  server.on('upgrade', upgrade)
  return wss
}

/** The upgrade handler `attachOpenEnvWebSocket` installs, for a listener that loads the gym on first use. */
export function openEnvUpgrades(
  gym: Gym,
  keys: OpenEnvKeys,
  opts: { adminToken?: string; adminScope?: OpenEnvScope } = {},
) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES })
  const admin = opts.adminToken ? Buffer.from(opts.adminToken) : undefined
  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const keyed = /^\/openenv\/([A-Za-z0-9_-]+)\/ws$/.exec(path)
    let scope: OpenEnvScope | undefined
    let entry: KeyEntry | undefined
    if (keyed) {
      entry = keys.find(keyed[1]!)
      if (!entry) return reject(socket, 404, 'Not Found')
      if (entry.sockets >= (entry.scope.maxEpisodes ?? 512)) return reject(socket, 503, 'Service Unavailable')
      scope = entry.scope
    } else if (path === '/ws' && admin) {
      const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')
      const given = Buffer.from(m?.[1] ?? '')
      if (given.length !== admin.length || !timingSafeEqual(given, admin)) return reject(socket, 401, 'Unauthorized')
      scope = opts.adminScope ?? {}
    } else return reject(socket, 404, 'Not Found')
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (entry) entry.sockets++
      serveSession(ws, gym, scope!, () => {
        if (entry) entry.sockets--
      })
    })
  }
  return { wss, upgrade }
}
