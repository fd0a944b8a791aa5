import { serve, type ServerType } from '@hono/node-server'
import type { AddressInfo } from 'node:net'
import { createAgentApp } from './app.ts'
import { createControlApp } from './control/app.ts'
import { WorldManager } from './worlds.ts'

export type ServeOptions = {
  host: string
  port: number
  controlPort: number
  adminToken: string
  dataDir?: string
  /** Worlds to create at start (skipped when a world with that id was reloaded from dataDir). */
  worlds: { id: string; seed: string | Record<string, unknown>; seedValue: number }[]
}

export type Running = { agentUrl: string; controlUrl: string; worlds: WorldManager; close(): Promise<void> }

/** Listens on host:port; rejects with the socket error (EADDRINUSE, EACCES, …) instead of emitting it unhandled. */
const listen = (fetch: (req: Request) => Response | Promise<Response>, host: string, port: number) =>
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
  const worlds = new WorldManager({ dataDir: opts.dataDir })
  let agent: ServerType | undefined
  let control: ServerType
  try {
    for (const w of opts.worlds) if (!worlds.find(w.id)) worlds.create(w)
    agent = await listen(createAgentApp(worlds).fetch, opts.host, opts.port)
    const agentBaseUrl = `http://${opts.host}:${(agent.address() as AddressInfo).port}`
    control = await listen(createControlApp(worlds, { adminToken: opts.adminToken, agentBaseUrl }).fetch, opts.host, opts.controlPort)
  } catch (e) {
    if (agent) await closeOne(agent)
    worlds.close()
    throw e
  }
  const agentUrl = `http://${opts.host}:${(agent.address() as AddressInfo).port}`
  const controlUrl = `http://${opts.host}:${(control.address() as AddressInfo).port}`
  return {
    agentUrl,
    controlUrl,
    worlds,
    async close() {
      await Promise.all([closeOne(agent), closeOne(control)])
      worlds.close()
    },
  }
}
