/** One printed benchmark figure. Benchmarks print; tests never assert timings. */
export type BenchFigure = { name: string; value: number; unit: string; target?: string }

/**
 * Latency percentiles (ms) of `fn` over `runs` calls after `warmup` calls; `between` runs untimed before each call
 * (e.g. one event-loop turn, as separate requests to a server get).
 */
export async function timeIt(
  fn: () => unknown | Promise<unknown>,
  runs = 200,
  warmup = 20,
  between?: () => Promise<unknown>,
) {
  for (let i = 0; i < warmup; i++) {
    if (between) await between()
    await fn()
  }
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    if (between) await between()
    const t = performance.now()
    await fn()
    samples.push(performance.now() - t)
  }
  samples.sort((a, b) => a - b)
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!
  return { p50: at(0.5), p99: at(0.99), mean: samples.reduce((a, b) => a + b, 0) / samples.length }
}

/** A world seeded from `seed` in a fresh manager, the agent app over it, and the first user's auth headers. */
export async function benchWorld(
  seed: Record<string, unknown>,
  token: 'googleToken' | 'slackUserToken' = 'googleToken',
) {
  const { WorldManager } = await import('../../server/worlds.ts')
  const { createAgentApp } = await import('../../server/app.ts')
  const worlds = new WorldManager()
  const t = performance.now()
  const entry = worlds.create({ seed, seedValue: 1 })
  const seedMs = performance.now() - t
  const app = createAgentApp(worlds)
  const headers = { authorization: `Bearer ${worlds.credentials(entry.id)[0]![token]}` }
  return { worlds, app, seedMs, headers }
}
