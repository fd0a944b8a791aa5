import type { OpenAPIHono } from '@hono/zod-openapi'
import type { SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { z } from 'zod'
import type { World } from './world.ts'
import type { WorldEnv } from './http.ts'
import type { WorldUserRow } from './world-tables.ts'
import type { SpecMethod } from './spec-method.ts'
import type { FieldTables } from './fields.ts'

/** A JSON value as oracles and diffs see it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/**
 * What a service hands to oracles: a versioned view of its state, as collections of entities keyed
 * by a stable id. It is a documented view, not the storage layout; diffs are computed on it.
 */
export type ServiceState = {
  version: number
  entities: Record<string, Record<string, Json>>
}

/** What `seed()` gets besides its own slice of the seed document. */
export type SeedContext = {
  /** Users of the world, in seed order, already written to world_users. */
  users: readonly WorldUserRow[]
  /** The world clock at creation, epoch ms. */
  nowMs: number
  /** The seed value (integer) the world was built with. */
  seedValue: number
  /** Seed time (absolute or relative like "-2d") → epoch ms; throws on nonsense. */
  time(value: string): number
  /** Looks a user up by id or email; throws a seed error naming `path` when absent. */
  user(ref: string, path: string): WorldUserRow
  domain: string
}

/**
 * One mocked API: LocalStack's provider + store + hooks squeezed into one plain value.
 * Adding a service to the server is one line in `server/registry.ts`.
 */
export interface ServiceProvider<Name extends string = string, Seed = unknown> {
  readonly name: Name
  readonly family: 'google' | 'slack'
  /** Tables this service owns; every SQL name starts with `${name}_`. */
  readonly tables: readonly SQLiteTable[]
  /**
   * Routes with full public paths (`/gmail/v1/...`, `/api/chat.postMessage`), imported on first use: a server
   * builds a service's route schemas only when a request reaches its prefix (docs/decisions/0293).
   */
  loadRouter(): Promise<OpenAPIHono<WorldEnv>>
  /** Public path prefixes that belong to this service (used for 501/404 and the action log). */
  readonly pathPrefixes: readonly string[]
  /** Every method the real API has (generated from the spec); unmatched ones answer 501. */
  readonly specMethods: readonly SpecMethod[]
  /** Google services: property names of the response schemas (generated), so `fields=` is checked like Google does. */
  readonly fieldTables?: FieldTables
  /** Validates this service's key of a seed document (`gmail:`, `slack:`, …). */
  readonly seedSchema: z.ZodType<Seed>
  /** Writes this service's slice of a fresh world. Same seed, same bytes. */
  seed(world: World, seed: Seed, ctx: SeedContext): void
  /** Versioned view for oracles and diffs. */
  dump(world: World): ServiceState
  /**
   * Drive (and Calendar) answer errors in the legacy v1 envelope, without the `status` field
   * (see specs/parity/gdrive/error_*.json); the default is Google's AIP-193 envelope with `status`.
   */
  readonly googleErrorStyle?: 'aip' | 'legacy'
  /** Runs work that was due between two clock readings (scheduled messages, reminders, …). */
  onClockAdvance?(world: World, fromMs: number, toMs: number): void
  /**
   * Whether `onClockAdvance` would change anything for this move (reads only). An agent request's tick asks
   * first: when no service has due work, the clock is written alone, without a transaction. Omitted: always due.
   */
  hasDueWork?(world: World, fromMs: number, toMs: number): boolean
}
