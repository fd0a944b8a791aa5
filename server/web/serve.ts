import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions } from 'node:http'
import type { ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { installLightGlobals } from './install.ts'

/** A Hono app's fetch, as the listener calls it (the Node request and response as its env). */
export type AppFetch = (req: Request, env: { incoming: IncomingMessage; outgoing: ServerResponse }) => unknown

type NodeServer = {
  getRequestListener(fetch: AppFetch, options: { hostname?: string }): RequestListener
}
let nodeServer: NodeServer | undefined

/**
 * @hono/node-server, loaded once the light globals are in place (docs/decisions/0436): it takes the global `Request`
 * and `Response` as the classes its lazy request and lightweight response stand on when the module is evaluated, so
 * a static import (evaluated before any code of ours runs) would load undici. Required at run time, not bundled.
 */
function loadNodeServer(): NodeServer {
  installLightGlobals()
  return (nodeServer ??= createRequire(import.meta.url)('@hono/node-server') as NodeServer)
}

/**
 * An HTTP server answering with `fetch` through @hono/node-server's listener over the light classes of server/web/
 * (docs/decisions/0436). `hostname` stands for a missing Host header; `wrap` wraps the request listener.
 */
export function createFetchServer(
  fetch: AppFetch,
  opts: { hostname?: string; serverOptions?: ServerOptions; wrap?: (l: RequestListener) => RequestListener } = {},
): Server {
  const listener = loadNodeServer().getRequestListener(fetch, { hostname: opts.hostname })
  return createServer(opts.serverOptions ?? {}, opts.wrap ? opts.wrap(listener) : listener)
}

/** `serve()` of @hono/node-server over the light classes: listens on hostname:port, `ready` once listening. */
export function serveFetch(
  opts: { fetch: AppFetch; port: number; hostname: string },
  ready?: (info: AddressInfo) => void,
): Server {
  const server = createFetchServer(opts.fetch, { hostname: opts.hostname })
  server.listen(opts.port, opts.hostname, () => ready?.(server.address() as AddressInfo))
  return server
}
