import type { AddressInfo, Socket } from 'node:net'
import type { IncomingMessage, RequestListener, Server } from 'node:http'
import { createAgentApp } from './app.ts'
import { createControlApp } from './control/app.ts'
import { WorldManager } from './worlds.ts'
import { envDefaults } from './env.ts'
import { DEFAULT_LIMITS, type Limits } from './limits.ts'
import type { Duplex } from 'node:stream'
import type { WebSocketServer } from 'ws'
import { adoptBakedTemplates } from './templates.ts'
import { openEnvKeyProblem } from '../gym/openenv-key.ts'
import type { GymSide } from './control/app.ts'
import { adoptHandedConnections, isHanded, routedListener, type PeersMessage } from './handoff.ts'
import { answerClientError } from './client-error.ts'
import { installLightGlobals } from './web/install.ts'
import { createFetchServer } from './web/serve.ts'
import { boundConnections, connectionServerOptions, type ConnectionLimits } from './connections.ts'

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
  worlds: {
    id: string
    seed: string | Record<string, unknown>
    seedValue: number
    publicDemoKeys?: boolean
    onFirstUse?: boolean
  }[]
  /** Folder of templates baked by the build (server/templates.ts); none when running the sources. */
  templatesDir?: string
  /** One worker of several (server/workers.ts): the world ids it serves, and the front's agent URL to advertise. */
  owns?: (id: string) => boolean
  publicAgentUrl?: string
  /** A worker of `--workers N`: serves connections the front hands over and relays other workers' requests. */
  handoff?: boolean
  /** Gym episodes open a connection of their own (GymOptions.freshWorlds); `WSGYM_FRESH_EPISODE_WORLDS=1`. */
  freshEpisodeWorlds?: boolean
}

export type Running = {
  agentUrl: string
  controlUrl: string
  worlds: WorldManager
  close(): Promise<void>
}

/** The gym side of a server, created on first use: what the control plane mounts, agent MCP and WebSockets. */
type ServedGym = GymSide & {
  mcpFetch: (req: Request) => Response | Promise<Response>
  wss: WebSocketServer
  upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void
}

/** Listens on host:port; rejects with the socket error (EADDRINUSE, EACCES, …) instead of emitting it unhandled. */
type Fetch = (req: Request, env?: object) => Response | Promise<Response>
type Wrap = (listener: RequestListener) => RequestListener
/** Connection bounds of a listener (server/connections.ts), and which connections count against its caps. */
type Bounds = { limits: ConnectionLimits; counted?: (socket: Socket) => boolean }
const listen = (fetch: Fetch, host: string, port: number, wrap?: Wrap, bounds?: Bounds) =>
  new Promise<Server>((resolve, reject) => {
    // @hono/node-server's listener over the light Request and Response (server/web/, docs/decisions/0436).
    const serverOptions = bounds ? connectionServerOptions(bounds.limits) : undefined
    const s = createFetchServer(fetch, { hostname: host, serverOptions, wrap })
    s.listen(port, host, () => {
      s.off('error', reject)
      resolve(s)
    })
    if (bounds) boundConnections(s, bounds.limits, bounds.counted)
    s.once('error', reject)
    // Requests Node cannot parse: a URL over the header limit gets Google's 414, the rest Node's own answers.
    s.on('clientError', answerClientError)
  })

const closeOne = (s: Server) => new Promise<void>((resolve) => s.close(() => resolve()))

/** Starts the agent listener and the control listener over one WorldManager. */
export async function startServer(opts: ServeOptions): Promise<Running> {
  // A bad key is refused at start, as before the gym was loaded on first use.
  const keyProblem = opts.openenvKey === undefined ? undefined : openEnvKeyProblem(opts.openenvKey)
  if (keyProblem) throw new Error(keyProblem)
  // Hono's Request, Response and Headers without undici, before anything builds one (docs/decisions/0436).
  installLightGlobals()
  const worlds = new WorldManager({
    dataDir: opts.dataDir,
    limits: opts.limits,
    owns: opts.owns,
    serverSecret: opts.serverSecret,
  })
  let agent: Server | undefined
  let control: Server
  let ownAgentUrl: string
  let agentUrl: string
  // The gym (episodes, OpenEnv, MCP, the inspector) and its task corpus, oracles and typed tools are imported when
  // first used: a served process that only hosts worlds never loads them (docs/decisions/0293).
  let gymSide: Promise<ServedGym> | undefined
  let served: ServedGym | undefined
  const loadGym = (): Promise<ServedGym> =>
    (gymSide ??= (async () => {
      const [{ createGym }, { withAgentMcp }, { OpenEnvKeys, openEnvUpgrades }] = await Promise.all([
        import('../gym/index.ts'),
        import('../gym/agent-mcp.ts'),
        import('../gym/openenv-ws.ts'),
      ])
      // One gym serves both listeners: episodes reset on the control port answer MCP on the agent port.
      const freshWorlds = opts.freshEpisodeWorlds ?? envDefaults.freshEpisodeWorlds
      const gym = createGym({ worlds, app: agentApp, freshWorlds })
      const openenvKeys = new OpenEnvKeys(gym, { agentBaseUrl: agentUrl })
      if (opts.openenvKey) openenvKeys.add({}, opts.openenvKey)
      const adminScope = { agentBaseUrl: agentUrl }
      const ws = openEnvUpgrades(gym, openenvKeys, { adminToken: opts.adminToken, adminScope })
      served = { gym, openenvKeys, mcpFetch: withAgentMcp(agentApp.fetch, gym), ...ws }
      return served
    })().catch((e) => {
      gymSide = undefined
      throw e
    }))
  const agentApp = createAgentApp(worlds)
  try {
    adoptBakedTemplates(worlds, opts.templatesDir)
    for (const w of opts.worlds) if (!worlds.find(w.id) && worlds.owns(w.id)) worlds.create(w)
    // The agent app gets the listener's env (the Node request), so bodies are read from the socket stream
    // (server/middleware/node-body.ts); `/mcp` goes to the episode's MCP endpoint as withAgentMcp routes it.
    const agentFetch = (req: Request, env?: object) =>
      req.url.includes('/mcp') && new URL(req.url).pathname === '/mcp'
        ? loadGym().then((g) => g.mcpFetch(req))
        : agentApp.fetch(req, env)
    // A worker learns its peers once every worker is up (server/handoff.ts); no connection is handed over before.
    let peers: PeersMessage | undefined
    if (opts.handoff) process.on('message', (m: PeersMessage | undefined) => void (m?.wsgym === 'peers' && (peers = m)))
    const routed = (side: 'agent' | 'control'): Wrap | undefined =>
      opts.handoff ? (listener) => routedListener(side, listener, () => peers) : undefined
    // The agent's connections are bounded; a worker counts only those the front handed it (not peers' relays).
    const limits = { ...DEFAULT_LIMITS, ...opts.limits }
    const bounds: Bounds = { limits, counted: opts.handoff ? isHanded : undefined }
    agent = await listen(agentFetch, opts.host, opts.port, routed('agent'), bounds)
    ownAgentUrl = `http://${opts.host}:${(agent.address() as AddressInfo).port}`
    // A worker advertises the front's URL (server/workers.ts), so reset answers name the public agent port.
    agentUrl = opts.publicAgentUrl ?? ownAgentUrl
    const controlOpts = { adminToken: opts.adminToken, agentBaseUrl: agentUrl, loadGym }
    const controlApp = createControlApp(worlds, controlOpts)
    control = await listen(controlApp.fetch, opts.host, opts.controlPort, routed('control'))
    if (opts.handoff) adoptHandedConnections({ agent, control })
  } catch (e) {
    if (agent) await closeOne(agent)
    worlds.close()
    throw e
  }
  const controlUrl = `http://${opts.host}:${(control.address() as AddressInfo).port}`
  // OpenEnv WebSocket sessions (`/ws`, `/openenv/<key>/ws`) load the gym before their upgrade is answered.
  control.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    loadGym().then(
      (g) => g.upgrade(req, socket, head),
      () => socket.destroy(),
    )
  })
  return {
    agentUrl: ownAgentUrl,
    controlUrl,
    worlds,
    async close() {
      if (served) {
        for (const ws of served.wss.clients) ws.terminate()
        served.wss.close()
      }
      await Promise.all([closeOne(agent), closeOne(control)])
      worlds.close()
    },
  }
}
