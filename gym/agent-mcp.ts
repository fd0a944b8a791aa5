/**
 * The agent side of the gym: `POST /mcp` on the agent port, authenticated with the episode's own token (the
 * Google or the Slack token reset handed out, as `Authorization: Bearer …`). It serves exactly that episode's
 * tools; nothing of the control plane (other episodes, verify, state, snapshots) is reachable from it.
 */
import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { Gym } from './index.ts'
import type { Episode } from './episode.ts'
import { mcpHandler } from './mcp.ts'
import { resolveGoogle, resolveSlack, type Resolved } from '../server/middleware/identity.ts'
import { LIMITS, nestedDeeperThan } from '../server/app.ts'

/** The episode a bearer token belongs to: a live episode's world, and the episode's acting user. */
export function episodeOfToken(gym: Gym, c: Context): Episode | undefined {
  let found: Resolved | undefined
  for (const resolve of [() => resolveGoogle(gym.worlds, c), () => resolveSlack(gym.worlds, c, {})]) {
    try {
      found = resolve()
      break
    } catch {
      /* not this kind of token */
    }
  }
  if (!found) return undefined
  const ep = gym.get(found.entry.id) ?? [...gym.episodes.values()].find((e) => e.worldId === found.entry.id)
  if (!ep || ep.task.actor !== found.principal.userId) return undefined
  return ep
}

const unauthorized = (c: Context) =>
  c.json(
    {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32001,
        message: 'Unauthorized: send the episode token from reset as "Authorization: Bearer <token>"',
      },
    },
    401,
    {
      'www-authenticate': 'Bearer realm="workspace-gym", error="invalid_token"',
    },
  )

/** `/mcp` for agents, to mount in front of the agent app. */
export function agentMcpApp(gym: Gym): Hono {
  const app = new Hono()
  // Whatever escapes a handler answers JSON-RPC's internal error, never Hono's plain-text 500.
  app.onError((err, c) => {
    console.error('agent mcp: unhandled error', err)
    return c.json({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error' } }, 500)
  })
  const tooLarge = (c: Context) =>
    c.json(
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Request body exceeds ${LIMITS.jsonBytes} bytes` } },
      413,
    )
  app.use('/mcp', bodyLimit({ maxSize: LIMITS.jsonBytes, onError: tooLarge }))
  // Nesting past what any tool call needs is refused before the message is parsed, spending no step.
  app.use('/mcp', async (c, next) => {
    if (c.req.method !== 'POST' || !nestedDeeperThan(await c.req.text(), LIMITS.messageDepth)) return next()
    const message = `Parse error: JSON nested deeper than ${LIMITS.messageDepth} levels`
    return c.json({ jsonrpc: '2.0', id: null, error: { code: -32700, message } }, 400)
  })
  app.all('/mcp', (c) => {
    const ep = episodeOfToken(gym, c)
    if (!ep) return unauthorized(c)
    return mcpHandler(ep, c)
  })
  return app
}

/** The agent listener's fetch: `/mcp` goes to the episode's MCP endpoint, everything else to the agent app. */
export function withAgentMcp(agentFetch: (req: Request) => Response | Promise<Response>, gym: Gym) {
  const mcp = agentMcpApp(gym)
  return (req: Request) => (new URL(req.url).pathname === '/mcp' ? mcp.fetch(req) : agentFetch(req))
}
