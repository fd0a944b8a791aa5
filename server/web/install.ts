import { LightHeaders } from './headers.ts'
import { ListenerResponse } from './listener-response.ts'
import { keepOriginal } from './real.ts'
import { LightRequest } from './request.ts'

/**
 * Puts the light `Headers`, `Request` and `Response` (server/web/) on globalThis, for the served process
 * (docs/decisions/0436): Hono, our apps and the listener then build and answer requests without loading undici,
 * Node's fetch implementation (~9.5 MiB resident once loaded). Node's own classes stay reachable for the rare
 * bodies left to them (server/web/real.ts); `fetch`, `FormData` and the rest of undici's globals are untouched
 * and load it when used. Defining the properties does not run Node's lazy getters.
 */
let installed = false

export function installLightGlobals(): void {
  // (Reading `globalThis.Headers` to compare would run Node's lazy getter, which loads undici.)
  if (installed) return
  installed = true
  const classes = { Headers: LightHeaders, Request: LightRequest, Response: ListenerResponse }
  for (const [name, cls] of Object.entries(classes)) {
    keepOriginal(name as keyof typeof classes)
    Object.defineProperty(globalThis, name, { value: cls, writable: true, configurable: true, enumerable: false })
  }
}
