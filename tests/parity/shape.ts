import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

/** A recorded real response from `specs/parity/<svc>/<name>.json` (capture-only keys removed). */
export function recorded(svc: string, name: string): unknown {
  const file = resolve(
    import.meta.dirname,
    '..',
    '..',
    'specs',
    'parity',
    svc,
    name.endsWith('.json') ? name : `${name}.json`,
  )
  return strip(JSON.parse(readFileSync(file, 'utf8')))
}

function strip(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(strip)
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => k !== '_captured_at')
        .map(([k, x]) => [k, strip(x)]),
    )
  }
  return v
}

/**
 * The shape of a JSON value: types instead of values, arrays reduced to the union of their items'
 * keys. Two responses of the same call have equal shapes when they differ only in ids, times, texts.
 */
export function shapeOf(v: unknown): unknown {
  if (v === null) return 'null'
  if (Array.isArray(v)) {
    if (v.length === 0) return []
    const merged = v.map(shapeOf).reduce((a, b) => mergeShapes(a, b))
    return [merged]
  }
  if (typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, x]) => [k, shapeOf(x)]),
    )
  }
  return typeof v
}

function mergeShapes(a: unknown, b: unknown): unknown {
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const out: Record<string, unknown> = { ...(a as Record<string, unknown>) }
    for (const [k, v] of Object.entries(b as Record<string, unknown>)) out[k] = k in out ? mergeShapes(out[k], v) : v
    return out
  }
  return a
}

/**
 * Keys present in `real` but missing in `ours` (fidelity gaps) and keys in `ours` that `real` never
 * has (fidelity bugs), as dotted paths. `ignore` lists paths that legitimately differ (optional keys
 * that depend on data).
 */
export function compareShapes(ours: unknown, real: unknown, ignore: readonly string[] = []) {
  const missing: string[] = []
  const extra: string[] = []
  const walk = (o: unknown, r: unknown, path: string) => {
    if (ignore.includes(path)) return
    if (Array.isArray(o) && Array.isArray(r)) {
      if (o.length > 0 && r.length > 0) walk(o[0], r[0], `${path}[]`)
      return
    }
    if (o && r && typeof o === 'object' && typeof r === 'object') {
      const ok = o as Record<string, unknown>
      const rk = r as Record<string, unknown>
      for (const k of Object.keys(rk)) {
        const p = path ? `${path}.${k}` : k
        if (!(k in ok)) {
          if (!ignore.includes(p)) missing.push(p)
        } else walk(ok[k], rk[k], p)
      }
      for (const k of Object.keys(ok)) {
        const p = path ? `${path}.${k}` : k
        if (!(k in rk) && !ignore.includes(p)) extra.push(p)
      }
    }
  }
  walk(shapeOf(ours), shapeOf(real), '')
  return { missing, extra }
}
