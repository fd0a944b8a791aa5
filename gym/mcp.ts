/**
 * MCP (Model Context Protocol) over Streamable HTTP for one episode: JSON responses only (no SSE stream, no
 * server-initiated messages) and no session ids (the credential names the episode), as the transport spec allows.
 * Served to agents on the agent port (`POST /mcp` with the episode's own token) and to operators on the control
 * port (`/gym/episodes/:id/mcp`, admin token).
 */
import type { Context } from 'hono'
import type { Episode } from './episode.ts'
import { initialObservation } from './observation.ts'
import { VERSION } from '../server/app.ts'

/** Protocol revisions this server speaks; the newest is offered when a client asks for one we do not know. */
export const MCP_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const
type Rpc = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown }
type Reply = { jsonrpc: '2.0'; id: string | number | null; result?: unknown; error?: { code: number; message: string } }

const rpcError = (id: Reply['id'], code: number, message: string): Reply => ({
  jsonrpc: '2.0',
  id,
  error: { code, message },
})
const validId = (id: unknown): id is string | number =>
  typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))

/** The MCP tool list of an episode (name, description, input schema). */
export function mcpTools(ep: Episode) {
  return ep.tools.map((t) => ({
    name: t.function.name,
    description: t.function.description,
    inputSchema: t.function.parameters,
  }))
}

/** One JSON-RPC message → its reply; undefined for notifications and for client responses. */
export async function handleMcpMessage(ep: Episode, msg: Rpc): Promise<Reply | undefined> {
  if (!msg || typeof msg !== 'object' || Array.isArray(msg) || msg.jsonrpc !== '2.0')
    return rpcError(null, -32600, 'Invalid Request: expected a JSON-RPC 2.0 object')
  // A response to a request of ours: nothing to answer.
  if (msg.method === undefined && ('result' in msg || 'error' in msg)) return undefined
  if (typeof msg.method !== 'string')
    return rpcError(validId(msg.id) ? msg.id : null, -32600, 'Invalid Request: method must be a string')
  if (msg.id === undefined) return undefined // notification (notifications/initialized, cancelled, …)
  if (!validId(msg.id)) return rpcError(null, -32600, 'Invalid Request: id must be a string or a number')
  const id = msg.id
  const params = (msg.params && typeof msg.params === 'object' ? msg.params : {}) as Record<string, unknown>
  switch (msg.method) {
    case 'initialize': {
      const asked = typeof params.protocolVersion === 'string' ? params.protocolVersion : ''
      const protocolVersion = (MCP_VERSIONS as readonly string[]).includes(asked) ? asked : MCP_VERSIONS[0]
      const result = {
        protocolVersion,
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: 'workspace-gym', version: VERSION },
        instructions: initialObservation(ep),
      }
      return { jsonrpc: '2.0', id, result }
    }
    case 'ping':
      return { jsonrpc: '2.0', id, result: {} }
    case 'tools/list':
      return { jsonrpc: '2.0', id, result: { tools: mcpTools(ep) } }
    case 'tools/call': {
      const name = params.name
      if (typeof name !== 'string') return rpcError(id, -32602, 'Invalid params: name is required')
      if (!ep.tools.some((t) => t.function.name === name)) return rpcError(id, -32602, `Unknown tool: ${name}`)
      const args = params.arguments ?? {}
      if (!args || typeof args !== 'object' || Array.isArray(args))
        return rpcError(id, -32602, 'Invalid params: arguments must be an object')
      const r = await ep.step({ tool: name, arguments: args as Record<string, unknown> })
      const isError = (r.info.status ?? 200) >= 400 || !!r.info.error
      return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: r.observation }], isError } }
    }
    default:
      return rpcError(id, -32601, `Method not found: ${msg.method}`)
  }
}

const safeHost = (origin: string) => {
  try {
    return new URL(origin).host
  } catch {
    return undefined
  }
}

/** Streamable HTTP for one episode: POST carries JSON-RPC; GET and DELETE are 405 (no stream, no session to end). */
export async function mcpHandler(ep: Episode, c: Context): Promise<Response> {
  // DNS-rebinding guard the transport spec requires: a browser Origin must be this server's own origin.
  const origin = c.req.header('origin')
  if (origin !== undefined && origin !== new URL(c.req.url).origin && safeHost(origin) !== c.req.header('host')) {
    return c.json(rpcError(null, -32000, `Forbidden: origin ${origin} may not use this endpoint`), 403)
  }
  if (c.req.method !== 'POST') {
    return c.json(
      rpcError(
        null,
        -32000,
        'Method not allowed: this endpoint takes POST (it offers no SSE stream and issues no sessions)',
      ),
      405,
      { allow: 'POST' },
    )
  }
  const version = c.req.header('mcp-protocol-version')
  if (version && !(MCP_VERSIONS as readonly string[]).includes(version))
    return c.json(rpcError(null, -32600, `Unsupported MCP-Protocol-Version: ${version}`), 400)
  let payload: unknown
  try {
    payload = JSON.parse(await c.req.text())
  } catch {
    return c.json(rpcError(null, -32700, 'Parse error'), 400)
  }
  const batch = Array.isArray(payload)
  if (batch && !(payload as unknown[]).length)
    return c.json(rpcError(null, -32600, 'Invalid Request: empty batch'), 400)
  const replies: Reply[] = []
  for (const m of batch ? (payload as Rpc[]) : [payload as Rpc]) {
    const r = await handleMcpMessage(ep, m)
    if (r) replies.push(r)
  }
  // Only notifications or responses: accepted, no body (Streamable HTTP).
  if (!replies.length) return c.body(null, 202)
  return c.json(batch ? replies : replies[0], 200)
}
