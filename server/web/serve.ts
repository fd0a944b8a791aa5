import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions } from 'node:http'
import type { ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { installLightGlobals } from './install.ts'
import { requestListener } from './listener.ts'

/** A Hono app's fetch, as the listener calls it (the Node request and response as its env). */
export type AppFetch = (req: Request, env: { incoming: IncomingMessage; outgoing: ServerResponse }) => unknown

/**
 * An HTTP server answering with `fetch` through our listener, the light globals installed first
 * (docs/decisions/0436). `hostname` stands for a missing Host header; `wrap` wraps the request listener.
 */
export function createFetchServer(
  fetch: AppFetch,
  opts: { hostname?: string; serverOptions?: ServerOptions; wrap?: (l: RequestListener) => RequestListener } = {},
): Server {
  installLightGlobals()
  const listener = requestListener(fetch, opts.hostname) as RequestListener
  return createServer(opts.serverOptions ?? {}, opts.wrap ? opts.wrap(listener) : listener)
}

/** `serve()` of @hono/node-server, over our listener: listens on hostname:port, `ready` once listening. */
export function serveFetch(
  opts: { fetch: AppFetch; port: number; hostname: string },
  ready?: (info: AddressInfo) => void,
): Server {
  const server = createFetchServer(opts.fetch, { hostname: opts.hostname })
  server.listen(opts.port, opts.hostname, () => ready?.(server.address() as AddressInfo))
  return server
}
