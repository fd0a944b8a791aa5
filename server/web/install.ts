import { LightHeaders } from './headers.ts'
import { keepOriginal } from './real.ts'
import { LightRequest } from './request.ts'
import { LightResponse } from './response.ts'

/**
 * Puts the light `Headers`, `Request` and `Response` (server/web/) on globalThis, for the served process
 * (docs/decisions/0436): Hono, our apps and the listener then build and answer requests without loading undici,
 * Node's fetch implementation (~9.5 MiB resident once loaded). Node's own classes stay reachable for the rare
 * bodies left to them (server/web/real.ts); `fetch`, `FormData` and the rest of undici's globals are untouched
 * and load it when used. Defining the properties does not run Node's lazy getters.
 */
export function installLightGlobals(): void {
  const classes = { Headers: LightHeaders, Request: LightRequest, Response: LightResponse }
  for (const [name, cls] of Object.entries(classes)) {
    // The descriptor, not the value: reading `globalThis.Headers` would run Node's lazy getter (undici). A class
    // built on the light one (@hono/node-server's, which its listener installs) is left in place.
    const current: unknown = Object.getOwnPropertyDescriptor(globalThis, name)?.value
    if (current === cls || (typeof current === 'function' && cls.prototype.isPrototypeOf(current.prototype))) continue
    keepOriginal(name as keyof typeof classes)
    Object.defineProperty(globalThis, name, { value: cls, writable: true, configurable: true, enumerable: false })
  }
}
