import { createHash } from 'node:crypto'
import { z } from 'zod'
import { World } from '../envs/core/world.ts'
import { setClock, setMeta, setTick } from '../envs/core/clock.ts'
import { CoreSeed, resolveSeedTime } from '../envs/core/seed-types.ts'
import { worldUsers, type WorldUserRow } from '../envs/core/world-tables.ts'
import { DEFAULT_SLACK_USER_SCOPES, issueTokenKey } from '../envs/core/tokens.ts'
import type { SeedContext } from '../envs/core/service.ts'
import { listUsers } from '../envs/core/users.ts'
import { allServiceTables, services } from './registry.ts'

/** A seed document: the core keys plus one optional key per service (`gmail:`, `slack:`, …). */
export type SeedDocument = z.input<typeof CoreSeed> & { [service: string]: unknown }

export type SeedIssue = { path: string; message: string }

/** Thrown for a seed that does not validate; every issue names the offending field path. */
export class SeedError extends Error {
  constructor(readonly issues: SeedIssue[]) {
    super(`invalid seed:\n${issues.map((i) => `  ${i.path || '(root)'}: ${i.message}`).join('\n')}`)
  }
}

const knownKeys = new Set([...Object.keys(CoreSeed.shape), ...services.map((s) => s.name)])

const formatPath = (path: readonly PropertyKey[]) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('')

/** Validates a seed document; returns the parsed core part and each service's parsed slice. */
export function validateSeed(doc: unknown): { core: CoreSeed; slices: Record<string, unknown> } {
  const issues: SeedIssue[] = []
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new SeedError([{ path: '', message: 'a seed is an object' }])
  const record = doc as Record<string, unknown>
  for (const key of Object.keys(record)) {
    if (!knownKeys.has(key)) issues.push({ path: key, message: `unknown key (known: ${[...knownKeys].join(', ')})` })
  }
  const core = CoreSeed.safeParse(record)
  if (!core.success) for (const i of core.error.issues) issues.push({ path: formatPath(i.path), message: i.message })
  const slices: Record<string, unknown> = {}
  for (const service of services) {
    const parsed = service.seedSchema.safeParse(record[service.name])
    if (parsed.success) slices[service.name] = parsed.data
    else for (const i of parsed.error.issues) issues.push({ path: formatPath([service.name, ...i.path]), message: i.message })
  }
  if (core.success) {
    const ids = new Set<string>()
    core.data.users.forEach((u, i) => {
      if (ids.has(u.id)) issues.push({ path: `users[${i}].id`, message: `duplicate user id "${u.id}"` })
      ids.add(u.id)
    })
  }
  if (issues.length > 0 || !core.success) throw new SeedError(issues)
  return { core: core.data, slices }
}

/** Builds a world from a seed document and a seed value (which salts ids and tokens). */
export function buildWorld(doc: unknown, seedValue: number, file?: string): World {
  const { core, slices } = validateSeed(doc)
  const world = World.create(allServiceTables(), file)
  const nowMs = Date.parse(core.now)
  world.tx((db) => {
    setMeta(db, 'seed_name', core.name)
    setMeta(db, 'seed_value', String(seedValue))
    setMeta(db, 'id_salt', createHash('sha256').update(`${core.name}:${seedValue}`).digest('hex').slice(0, 16))
    setMeta(db, 'domain', core.domain)
    setMeta(db, 'organization', core.organization)
    setClock(db, nowMs)
    setTick(db, core.tickMs)
    for (const u of core.users) {
      const [given, ...rest] = u.name.split(' ')
      db.insert(worldUsers)
        .values({
          id: u.id,
          email: u.email,
          name: u.name,
          givenName: u.givenName ?? given ?? u.name,
          familyName: u.familyName ?? rest.join(' '),
          timeZone: u.timeZone,
          title: u.title,
          isAdmin: u.admin,
          tokenKey: '',
        })
        .run()
      issueTokenKey(db, u.id, 'google', ['https://mail.google.com/', 'https://www.googleapis.com/auth/calendar', 'https://www.googleapis.com/auth/drive', 'https://www.googleapis.com/auth/documents'])
      issueTokenKey(db, u.id, 'slack_user', DEFAULT_SLACK_USER_SCOPES)
    }
    const users = listUsers(db)
    const ctx = seedContext(users, nowMs, seedValue, core.domain)
    for (const service of services) service.seed(world, slices[service.name] as never, ctx)
  })
  return world
}

function seedContext(users: WorldUserRow[], nowMs: number, seedValue: number, domain: string): SeedContext {
  const order = new Map(users.map((u, i) => [u.id, i]))
  return {
    users,
    nowMs,
    seedValue,
    domain,
    time: (value) => resolveSeedTime(value, nowMs),
    user(ref, path) {
      const lower = ref.toLowerCase()
      const found = users.find((u) => u.id === ref || u.email.toLowerCase() === lower)
      if (!found) throw new SeedError([{ path, message: `no user "${ref}" in users[]` }])
      void order
      return found
    },
  }
}
