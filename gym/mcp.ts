import type { Context } from 'hono'
import type { Episode } from './episode.ts'

const PROTOCOL = '2025-03-26'
type Rpc = { jsonrpc?: string; id?: string | number | null; method?: string; params?: Record<string, unknown> }

/** One JSON-RPC message → its response (undefined for notifications). */
async function handle(ep: Episode, msg: Rpc): Promise<unknown> {
  const reply = (result: unknown) => ({ jsonrpc: '2.0', id: msg.id ?? null, result })
  const error = (code: number, message: string) => ({ jsonrpc: '2.0', id: msg.id ?? null, error: { code, message } })
  if (msg.id === undefined) return undefined // notification (e.g. notifications/initialized)
  switch (msg.method) {
    case 'initialize':
      return reply({ protocolVersion: PROTOCOL, capabilities: { tools: { listChanged: false } }, serverInfo: { name: 'workspace-gym', version: '0.1.0' }, instructions: ep.instruction })
    case 'ping':
      return reply({})
    case 'tools/list':
      return reply({ tools: ep.tools.map((t) => ({ name: t.function.name, description: t.function.description, inputSchema: t.function.parameters })) })
    case 'tools/call': {
      const name = msg.params?.name
      if (typeof name !== 'string') return error(-32602, 'params.name is required')
      const r = await ep.step({ tool: name, arguments: (msg.params?.arguments as Record<string, unknown>) ?? {} })
      const status = r.info.status ?? 200
      return reply({ content: [{ type: 'text', text: r.observation }], isError: status >= 400 || !!r.info.error, structuredContent: { terminated: r.terminated, truncated: r.truncated, step: r.info.step } })
    }
    default:
      return error(-32601, `method not found: ${msg.method}`)
  }
}

/**
 * The episode's tools over MCP streamable HTTP (JSON responses, no server-initiated stream): POST one
 * JSON-RPC message or a batch; notifications get 202.
 */
export async function mcpHandler(ep: Episode, c: Context): Promise<Response> {
  if (c.req.method !== 'POST') return c.json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'use POST (no SSE stream is offered)' } }, 405)
  let payload: unknown
  try { payload = await c.req.json() } catch { return c.json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }, 400) }
  const batch = Array.isArray(payload)
  const out = (await Promise.all((batch ? (payload as unknown[]) : [payload]).map((m: unknown) => handle(ep, (m ?? {}) as Rpc)))).filter((x: unknown) => x !== undefined)
  if (!out.length) return c.body(null, 202)
  return c.json(batch ? out : out[0], 200, { 'mcp-session-id': ep.id })
}
