import { readFileSync } from 'node:fs'
import { totalmem } from 'node:os'
import { getHeapStatistics } from 'node:v8'
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connections.ts'

/**
 * Capacity limits of one server process. Past a limit the control plane refuses with 429 (a count) or
 * 507 (memory or bytes) and a `reason`, so the process never dies of out-of-memory. Defaults are sized for
 * a training host; `wsgym serve --max-worlds …` and friends change them (see README, docs/security.md).
 */
export type Limits = {
  /** Worlds held at once (episodes included). */
  maxWorlds: number
  /** Named snapshots per world. */
  maxSnapshotsPerWorld: number
  /** Bytes of named snapshots per world. */
  maxSnapshotBytesPerWorld: number
  /** Seed templates cached (least recently used are dropped). */
  maxTemplates: number
  /** Bytes of cached seed templates. */
  maxTemplateBytes: number
  /** Refuse new worlds when the resident set exceeds this many bytes (0: 85% of the memory limit). */
  maxRssBytes: number
  /** Refuse new worlds when the JavaScript heap is fuller than this fraction of its limit. */
  maxHeapFraction: number
  /** Live gym episodes at once. */
  maxEpisodes: number
  /** An episode with no step or call for this long is closed (ms). */
  episodeIdleMs: number
  /** An episode older than this is closed, busy or not (ms). */
  episodeMaxAgeMs: number
} & ConnectionLimits

export const DEFAULT_LIMITS: Limits = {
  maxWorlds: 1000,
  maxSnapshotsPerWorld: 32,
  maxSnapshotBytesPerWorld: 256 * 1024 * 1024,
  maxTemplates: 64,
  maxTemplateBytes: 256 * 1024 * 1024,
  maxRssBytes: 0,
  maxHeapFraction: 0.85,
  maxEpisodes: 256,
  episodeIdleMs: 15 * 60_000,
  episodeMaxAgeMs: 2 * 60 * 60_000,
  ...DEFAULT_CONNECTION_LIMITS,
}

/** The memory the process may use: the cgroup limit when there is one, else the machine's memory. */
export function memoryLimit(): number {
  for (const file of ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes']) {
    try {
      const n = Number(readFileSync(file, 'utf8').trim())
      if (Number.isFinite(n) && n > 0 && n < totalmem()) return n
    } catch {
      // no cgroup limit here
    }
  }
  return totalmem()
}

let cachedLimit: number | undefined

/** Why memory is too tight for another world, or undefined when there is headroom. */
export function memoryPressure(limits: Pick<Limits, 'maxRssBytes' | 'maxHeapFraction'>): string | undefined {
  const rssCap = limits.maxRssBytes > 0 ? limits.maxRssBytes : Math.floor(0.85 * (cachedLimit ??= memoryLimit()))
  const rss = process.memoryUsage.rss()
  if (rss > rssCap) return `resident set ${rss} bytes over ${rssCap}`
  const heap = getHeapStatistics()
  if (heap.used_heap_size > limits.maxHeapFraction * heap.heap_size_limit) {
    return `JavaScript heap ${heap.used_heap_size} bytes over ${Math.round(limits.maxHeapFraction * 100)}% of ${heap.heap_size_limit}`
  }
  return undefined
}

/**
 * The limits of one of `workers` processes of `wsgym serve --workers N` (docs/security.md "Capacity"). Caps apply
 * per process: each worker holds up to `maxWorlds` worlds, `maxEpisodes` episodes, its own template cache. The
 * memory cap is the exception: N workers share one machine, so unless `--max-rss-mb` was given each worker's
 * default is its share, 85% of the memory limit divided by N, and together they stay inside the 85%.
 */
export function workerLimits(given: Partial<Limits>, workers: number, limit = memoryLimit()): Partial<Limits> {
  if (workers <= 1 || given.maxRssBytes !== undefined) return given
  return { ...given, maxRssBytes: Math.floor((0.85 * limit) / workers) }
}
