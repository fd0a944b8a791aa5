import { serve, type ServerType } from '@hono/node-server'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { createAgentApp } from './app.ts'
import { createControlApp } from './control/app.ts'
import { WorldManager } from './worlds.ts'
import type { Limits } from './limits.ts'
import { adoptBakedTemplates } from './templates.ts'
import { createGym } from '../gym/index.ts'
import { withAgentMcp } from '../gym/agent-mcp.ts'
import { attachOpenEnvWebSocket, OpenEnvKeys } from '../gym/openenv-ws.ts'

export type ServeOptions = {
  host: string
  port: number
  controlPort: number
  adminToken: string
  dataDir?: string
  /** Capacity limits (defaults in server/limits.ts). */
  limits?: Partial<Limits>
  /** Secret shared by every process and host of one deployment (`WSGYM_SECRET`, `--secret-file`). */
  serverSecret?: Buffer
  /** A per-environment OpenEnv key: opens `/openenv/<key>` (HTTP and WebSocket) on the control port, all tasks. */
  openenvKey?: string
  /** Worlds to create at start (skipped when a world with that id was reloaded from dataDir). */
  worlds: { id: string; seed: string | Record<string, unknown>; seedValue: number; publicDemoKeys?: boolean }[]
  /** Folder of templates baked by the build (server/templates.ts); none when running the sources. */
  templatesDir?: string
  /** One worker of several (server/workers.ts): the world ids it serves, and the front's agent URL to advertise. */
  owns?: (id: string) => boolean
  publicAgentUrl?: string
}

export type Running = {
  agentUrl: string
  controlUrl: string
  worlds: WorldManager
  openenvKeys: OpenEnvKeys
  close(): Promise<void>
}

/** Listens on host:port; rejects with the socket error (EADDRINUSE, EACCES, …) instead of emitting it unhandled. */
type Fetch = (req: Request, env?: object) => Response | Promise<Response>
const listen = (fetch: Fetch, host: string, port: number) =>
  new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch, port, hostname: host }, () => {
      s.off('error', reject)
      resolve(s)
    })
    s.once('error', reject)
  })

const closeOne = (s: ServerType) => new Promise<void>((resolve) => s.close(() => resolve()))

/** Starts the agent listener and the control listener over one WorldManager. */
export async function startServer(opts: ServeOptions): Promise<Running> {
  const worlds = new WorldManager({ dataDir: opts.dataDir, limits: opts.limits, owns: opts.owns, serverSecret: opts.serverSecret })
  let agent: ServerType | undefined
  let control: ServerType
  let ownAgentUrl: string
  let agentUrl: string
  let openenvKeys: OpenEnvKeys
  let gym: ReturnType<typeof createGym>
  try {
    adoptBakedTemplates(worlds, opts.templatesDir)
    for (const w of opts.worlds) if (!worlds.find(w.id) && worlds.owns(w.id)) worlds.create(w)
    // One gym serves both listeners: episodes reset on the control port answer MCP on the agent port.
    const agentApp = createAgentApp(worlds)
    gym = createGym({ worlds, app: agentApp })
    // The agent app gets the listener's env (the Node request), so bodies are read from the socket stream
    // (server/middleware/node-body.ts); `/mcp` goes to the episode's MCP endpoint as withAgentMcp routes it.
    const mcpFetch = withAgentMcp(agentApp.fetch, gym)
    const agentFetch = (req: Request, env?: object) =>
      req.url.includes('/mcp') && new URL(req.url).pathname === '/mcp' ? mcpFetch(req) : agentApp.fetch(req, env)
    agent = await listen(agentFetch, opts.host, opts.port)
    ownAgentUrl = `http://${opts.host}:${(agent.address() as AddressInfo).port}`
    // A worker advertises the front's URL (server/workers.ts), so reset answers name the public agent port.
    agentUrl = opts.publicAgentUrl ?? ownAgentUrl
    openenvKeys = new OpenEnvKeys(gym, { agentBaseUrl: agentUrl })
    if (opts.openenvKey) openenvKeys.add({}, opts.openenvKey)
    const controlOpts = { adminToken: opts.adminToken, agentBaseUrl: agentUrl, gym, openenvKeys }
    const controlApp = createControlApp(worlds, controlOpts)
    control = await listen(controlApp.fetch, opts.host, opts.controlPort)
  } catch (e) {
    if (agent) await closeOne(agent)
    worlds.close()
    throw e
  }
  const controlUrl = `http://${opts.host}:${(control.address() as AddressInfo).port}`
  const wss = attachOpenEnvWebSocket(control as unknown as Server, gym, openenvKeys, {
    adminToken: opts.adminToken,
    adminScope: { agentBaseUrl: agentUrl },
  })
  return {
    agentUrl: ownAgentUrl,
    controlUrl,
    worlds,
    openenvKeys,
    async close() {
      for (const ws of wss.clients) ws.terminate()
      wss.close()
      await Promise.all([closeOne(agent), closeOne(control)])
      worlds.close()
    },
  }
}
