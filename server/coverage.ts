import type { ServiceProvider } from '../envs/core/service.ts'
import { services } from './registry.ts'
import { routerOf } from './routers.ts'

export type ServiceCoverage = {
  service: string
  implemented: number
  total: number
  implementedIds: string[]
  missing: string[]
  /** Registered operation ids that the spec does not have (always a bug). */
  unknown: string[]
}

/**
 * Operation ids a service registers (from its router's OpenAPI registry). The routers are imported on first use:
 * `await loadRouters()` (server/routers.ts) before calling this; it throws otherwise.
 */
export function registeredOperationIds(service: ServiceProvider): string[] {
  const ids = new Set<string>()
  for (const def of routerOf(service).openAPIRegistry.definitions) {
    if (def.type === 'route' && def.route.operationId) ids.add(def.route.operationId)
  }
  return [...ids].sort()
}

/** Registered routes compared with the spec, per service. */
export function coverageReport(): ServiceCoverage[] {
  return services.map((service) => {
    const spec = new Set(service.specMethods.map((m) => m.id))
    const registered = registeredOperationIds(service)
    const done = new Set(registered.filter((id) => spec.has(id)))
    return {
      service: service.name,
      implemented: done.size,
      total: spec.size,
      implementedIds: [...done].sort(),
      missing: [...spec].filter((id) => !done.has(id)).sort(),
      unknown: registered.filter((id) => !spec.has(id)),
    }
  })
}
