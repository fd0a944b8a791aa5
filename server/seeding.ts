import { createHash } from 'node:crypto'
import type { z } from 'zod'
import { World } from '../envs/core/world.ts'
import { setClock, setMeta, setTick } from '../envs/core/clock.ts'
import { CoreSeed, resolveSeedTime } from '../envs/core/seed-types.ts'
import { worldUsers, type WorldUserRow } from '../envs/core/world-tables.ts'
import { DEFAULT_SLACK_USER_SCOPES, FULL_GOOGLE_SCOPES, issueTokenKey } from '../envs/core/tokens.ts'
import type { SeedContext } from '../envs/core/service.ts'
import { listUsers } from '../envs/core/users.ts'
import { insertRow } from '../envs/core/db.ts'
import { withSeedingMemo } from '../envs/core/seeding-memo.ts'
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
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw new SeedError([{ path: '', message: 'a seed is an object' }])
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
    else
      for (const i of parsed.error.issues)
        issues.push({ path: formatPath([service.name, ...i.path]), message: i.message })
  }
  if (core.success) {
    const serviceKeys = new Set(Object.keys(record).filter((k) => !(k in CoreSeed.shape)))
    unknownKeys(record, core.data, [], issues, serviceKeys)
  }
  duplicateUsers(record.users, issues)
  for (const service of services) {
    const slice = slices[service.name]
    if (slice !== undefined) unknownKeys(record[service.name], slice, [service.name], issues)
  }
  if (issues.length > 0 || !core.success) throw new SeedError(issues)
  return { core: core.data, slices }
}

/** Two users with one id, or one e-mail address in any case (checked even when other user fields are wrong). */
function duplicateUsers(users: unknown, issues: SeedIssue[]) {
  if (!Array.isArray(users)) return
  const ids = new Set<string>()
  const emails = new Set<string>()
  users.forEach((u: unknown, i) => {
    if (!isPlainObject(u)) return
    if (typeof u.id === 'string') {
      if (ids.has(u.id)) issues.push({ path: `users[${i}].id`, message: `duplicate user id "${u.id}"` })
      ids.add(u.id)
    }
    if (typeof u.email === 'string') {
      const email = u.email.toLowerCase()
      if (emails.has(email)) issues.push({ path: `users[${i}].email`, message: `duplicate user email "${u.email}"` })
      emails.add(email)
    }
  })
}

/**
 * Keys of the document that its schema dropped: zod objects strip keys they do not know, so a misspelt key at any
 * depth (`memebrs:`) would otherwise vanish without a word. Walks the input beside the parsed value; records keep
 * every key, defaults only add keys, so whatever is missing from the parsed object was not understood.
 */
function unknownKeys(input: unknown, parsed: unknown, path: PropertyKey[], issues: SeedIssue[], skip?: Set<string>) {
  // `path` is one stack, pushed and popped on the way down (a seed has thousands of nodes; copies would cost more).
  if (Array.isArray(input) && Array.isArray(parsed) && input.length === parsed.length) {
    for (let i = 0; i < input.length; i++) {
      // A string, number or boolean has no keys: the call would return at once (most of a seed's leaves).
      if (typeof input[i] !== 'object' || input[i] === null) continue
      path.push(i)
      unknownKeys(input[i], parsed[i], path, issues)
      path.pop()
    }
    return
  }
  if (!isPlainObject(input) || !isPlainObject(parsed)) return
  for (const key in input) {
    if (skip?.has(key)) continue
    path.push(key)
    if (!Object.hasOwn(parsed, key)) {
      const near = Object.keys(parsed)
        .filter((k) => !Object.hasOwn(input, k))
        .find((k) => editDistance(k.toLowerCase(), key.toLowerCase()) <= 2)
      const hint = near ? ` (did you mean "${near}"?)` : ''
      issues.push({ path: formatPath(path), message: `unknown key "${key}"${hint}` })
    } else if (typeof input[key] === 'object' && input[key] !== null) unknownKeys(input[key], parsed[key], path, issues)
    path.pop()
  }
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    prev = row
  }
  return prev[b.length]!
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype

/**
 * Checks everything seeding checks: the schema (validateSeed), then a throwaway build, which catches what only
 * seeding can see (a user, channel, file or message key that a field refers to and that does not exist).
 */
export function checkSeed(doc: unknown, seedValue = 1): void {
  buildWorld(doc, seedValue).close()
}

/**
 * Builds a world from a seed document and a seed value (which salts ids and tokens). `memo: false` seeds without the
 * seeding memo (envs/core/seeding-memo.ts): the same bytes, slower; the reference its test compares with.
 */
export function buildWorld(doc: unknown, seedValue: number, file?: string, opts: { memo?: boolean } = {}): World {
  const { core, slices } = validateSeed(doc)
  const world = World.create(allServiceTables(), file)
  try {
    fill(world, core, slices, seedValue, opts.memo ?? true)
  } catch (e) {
    world.close()
    throw e
  }
  return world
}

function fill(world: World, core: CoreSeed, slices: Record<string, unknown>, seedValue: number, memo: boolean) {
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
      insertRow(db, worldUsers, {
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
      issueTokenKey(db, u.id, 'google', FULL_GOOGLE_SCOPES)
      issueTokenKey(db, u.id, 'slack_user', DEFAULT_SLACK_USER_SCOPES)
    }
    const users = listUsers(db)
    const ctx = seedContext(users, nowMs, seedValue, core.domain)
    const seedServices = () => {
      for (const service of services) {
        try {
          service.seed(world, slices[service.name] as never, ctx)
        } catch (e) {
          throw asSeedError(e, service.name)
        }
      }
    }
    if (memo) withSeedingMemo(db, seedServices)
    else seedServices()
  })
}

/**
 * Any failure while seeding a service is the seed's fault, never the server's: a SeedError as it is, an error whose
 * message starts with a field path (`calendar.events[2]: …`) with that path, anything else under the service's key.
 */
function asSeedError(e: unknown, service: string): SeedError {
  if (e instanceof SeedError) return e
  const message = e instanceof Error ? e.message : String(e)
  const m = /^([a-zA-Z]+(?:\.[A-Za-z0-9_-]+|\[\d+\])+):\s+([\s\S]+)$/.exec(message)
  if (m && m[1]!.startsWith(`${service}.`)) return new SeedError([{ path: m[1]!, message: m[2]! }])
  return new SeedError([{ path: service, message }])
}

function seedContext(users: WorldUserRow[], nowMs: number, seedValue: number, domain: string): SeedContext {
  // `user(ref)` is the first user whose id is `ref` or whose address is `ref` in any case, found through two indexes
  // (seeds look users up for every message, event and grant).
  const byId = new Map<string, number>()
  const byEmail = new Map<string, number>()
  users.forEach((u, i) => {
    if (!byId.has(u.id)) byId.set(u.id, i)
    const email = u.email.toLowerCase()
    if (!byEmail.has(email)) byEmail.set(email, i)
  })
  return {
    users,
    nowMs,
    seedValue,
    domain,
    time: (value) => resolveSeedTime(value, nowMs),
    user(ref, path) {
      const a = byId.get(ref)
      const b = byEmail.get(ref.toLowerCase())
      const found = users[a === undefined ? (b ?? -1) : b === undefined ? a : Math.min(a, b)]
      if (!found) throw new SeedError([{ path, message: `no user "${ref}" in users[]` }])
      return found
    },
  }
}
