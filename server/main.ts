import { serve, type ServerType } from '@hono/node-server'
import type { AddressInfo } from 'node:net'
import { createAgentApp } from './app.ts'
import { createControlApp } from './control/app.ts'
import { WorldManager } from './worlds.ts'
import { adoptBakedTemplates } from './templates.ts'

export type ServeOptions = {
  host: string
  port: number
  controlPort: number
  adminToken: string
  dataDir?: string
  /** Worlds to create at start (skipped when a world with that id was reloaded from dataDir). */
  worlds: { id: string; seed: string | Record<string, unknown>; seedValue: number }[]
  /** Folder of templates baked by the build (server/templates.ts); none when running the sources. */
  templatesDir?: string
  /** One worker of several (server/workers.ts): the world ids it serves, and the front's agent URL to advertise. */
  owns?: (id: string) => boolean
  publicAgentUrl?: string
}

export type Running = { agentUrl: string; controlUrl: string; worlds: WorldManager; close(): Promise<void> }

const listen = (fetch: (req: Request) => Response | Promise<Response>, host: string, port: number) =>
  new Promise<ServerType>((resolve) => {
    const s = serve({ fetch, port, hostname: host }, () => resolve(s))
  })

/** Starts the agent listener and the control listener over one WorldManager. */
export async function startServer(opts: ServeOptions): Promise<Running> {
  const worlds = new WorldManager({ dataDir: opts.dataDir, owns: opts.owns })
  adoptBakedTemplates(worlds, opts.templatesDir)
  for (const w of opts.worlds) if (!worlds.find(w.id) && worlds.owns(w.id)) worlds.create(w)
  const agent = await listen(createAgentApp(worlds).fetch, opts.host, opts.port)
  const agentUrl = `http://${opts.host}:${(agent.address() as AddressInfo).port}`
  const agentBaseUrl = opts.publicAgentUrl ?? agentUrl
  const control = await listen(createControlApp(worlds, { adminToken: opts.adminToken, agentBaseUrl }).fetch, opts.host, opts.controlPort)
  const controlUrl = `http://${opts.host}:${(control.address() as AddressInfo).port}`
  const closeOne = (s: ServerType) => new Promise<void>((resolve) => s.close(() => resolve()))
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
