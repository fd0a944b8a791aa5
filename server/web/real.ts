import { loadedReal } from './headers.ts'

/**
 * Node's own (undici's) `Headers`, `Request` and `Response` while the light classes stand in for them on
 * globalThis (docs/decisions/0436). Node defines these globals as lazy getters that load undici on first read and
 * then replace themselves with the class: reading one here loads undici, and the light class is put back.
 */

type Name = 'Headers' | 'Request' | 'Response'
const originals: Partial<Record<Name, PropertyDescriptor>> = {}

/** Keeps the original global `name` (still lazy where nothing read it) before the light class replaces it. */
export function keepOriginal(name: Name): void {
  if (originals[name]) return
  const d = Object.getOwnPropertyDescriptor(globalThis, name)
  if (!d) return
  originals[name] = d
  if ('value' in d) loadedReal[name] = d.value as Function
}

/** Undici's class `name` (loads undici when nothing had). */
export function realClass<T>(name: Name): T {
  const kept = loadedReal[name]
  if (kept) return kept as T
  const d = originals[name]
  if (!d) return (globalThis as Record<string, unknown>)[name] as T
  const ours = Object.getOwnPropertyDescriptor(globalThis, name)!
  const cls = d.get!.call(globalThis) as Function
  if (ours) Object.defineProperty(globalThis, name, ours)
  loadedReal[name] = cls
  return cls as T
}
