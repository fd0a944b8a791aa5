import type { Rng } from '../../envs/core/rng.ts'
import type { SeedUser } from '../../envs/core/seed-types.ts'

/** What every per-service demo generator receives. */
export type DemoContext = { rng: Rng; users: readonly SeedUser[]; now: string; domain: string }
