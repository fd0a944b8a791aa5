import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { worldGroupMembers, worldGroups } from './groups.ts'
import { worldAliases } from './aliases.ts'
import { worldBuildings, worldFeatures, worldResources } from './resources.ts'

// Tables owned by the core. Every other table belongs to a service and carries its prefix.

/** Key/value facts about the world: seed name and value, id salt, clock settings. */
export const worldMeta = sqliteTable('world_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
})

/** Monotonic counters behind every deterministic id (one row per id family). */
export const worldCounters = sqliteTable('world_counters', {
  name: text('name').primaryKey(),
  value: integer('value').notNull(),
})

/** People of the world. Services key their data by `id`; `email` is the Google identity. */
export const worldUsers = sqliteTable(
  'world_users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    givenName: text('given_name').notNull(),
    familyName: text('family_name').notNull(),
    timeZone: text('time_zone').notNull(),
    title: text('title').notNull().default(''),
    isAdmin: integer('is_admin', { mode: 'boolean' }).notNull().default(false),
    /** Secret part of this user's tokens; the world id is prepended when a token is issued. */
    tokenKey: text('token_key').notNull(),
  },
  (t) => [index('world_users_by_email').on(t.email)],
)

/** Credentials: one row per token kind per principal (Google user, Slack user, Slack bot). */
export const worldTokens = sqliteTable('world_tokens', {
  key: text('key').primaryKey(),
  userId: text('user_id').notNull(),
  kind: text('kind', { enum: ['google', 'slack_user', 'slack_bot'] }).notNull(),
  scopes: text('scopes').notNull().default(''),
  revoked: integer('revoked', { mode: 'boolean' }).notNull().default(false),
})

/** Every agent API call, in order. Control-plane calls and health checks never land here. */
export const worldActionLog = sqliteTable('world_action_log', {
  seq: integer('seq').primaryKey(),
  atMs: integer('at_ms').notNull(),
  userId: text('user_id'),
  service: text('service'),
  operationId: text('operation_id'),
  method: text('method').notNull(),
  path: text('path').notNull(),
  query: text('query').notNull(),
  body: text('body'),
  status: integer('status').notNull(),
  /**
   * 1 when the call changed the world's rows and kept the change (no error ended it), else 0: what counts as a write
   * for every service alike, whatever the HTTP status says (Slack refuses with 200 `ok:false`; docs/decisions/0406).
   */
  wrote: integer('wrote'),
})

export const coreTables = [
  worldMeta,
  worldCounters,
  worldUsers,
  worldTokens,
  worldActionLog,
  worldGroups,
  worldGroupMembers,
  worldAliases,
  worldBuildings,
  worldFeatures,
  worldResources,
] as const

export type WorldUserRow = typeof worldUsers.$inferSelect
export type ActionLogRow = typeof worldActionLog.$inferSelect
