import { z } from 'zod'
import type { World } from './world.ts'
import type { ServiceState } from './service.ts'

/** Seed schema for a service that has nothing to seed yet. */
export const emptySeed = z.object({}).strict().default({})

/** The state view of a service that stores nothing. */
export const emptyState = (_world: World): ServiceState => ({ version: 1, entities: {} })
