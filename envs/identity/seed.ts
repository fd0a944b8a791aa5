import { createHash } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { z } from 'zod'
import { getMeta } from '../core/clock.ts'
import type { Db } from '../core/db.ts'
import { SeedTime } from '../core/seed-types.ts'
import type { SeedContext } from '../core/service.ts'
import { worldTokens } from '../core/world-tables.ts'
import type { World } from '../core/world.ts'
import { identityClients, identityGrants, identityRoles } from './schema.ts'
import { factsOf, saveFacts } from './store/users.ts'
import { addMember, insertGroup } from './store/groups.ts'
import { ensureUnitPath, saveUnit } from './store/org-units.ts'
import { normalizeScopes } from './store/oauth.ts'
import { seedServiceAccounts, serviceAccountSeedFields } from './seed-service-accounts.ts'
import { ADMIN_SERVICE, insertAssignment, insertRole, knownPrivilege, listRoles } from './store/roles.ts'
import { findGroupByEmail } from '../core/groups.ts'
import { generateBackupCodes, insertAppPassword } from './store/sign-in-codes.ts'
import {
  customValuesIn,
  FIELD_TYPES,
  fieldIdOf,
  findSchema,
  newSchemaId,
  READ_ACCESS,
  saveSchema,
  saveUserValues,
} from './store/user-schemas.ts'

const SeedClient = z.object({
  /** Seed-local name other entries use; the client id follows from it (or is given). */
  key: z.string().min(1),
  clientId: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/)
    .optional(),
  name: z.string().min(1),
  redirectUris: z.array(z.url()).default(['http://127.0.0.1/callback']),
  /** Scopes the client may request; empty means any. */
  scopes: z.array(z.string()).default([]),
})
const SeedGrant = z.object({
  user: z.string(),
  client: z.string(),
  scopes: z.array(z.string()).min(1),
  created: SeedTime.default('-30d'),
  lastUsed: SeedTime.optional(),
})
/** Narrows a user's seeded Google token to these scopes (by default it holds every scope). */
const SeedTokenScopes = z.object({ user: z.string(), scopes: z.array(z.string()) })

/** Directory facts of a user (everyone else: active, in `/`, created a year before the world's clock). */
const SeedDirectoryUser = z.object({
  user: z.string(),
  suspended: z.boolean().default(false),
  orgUnitPath: z.string().regex(/^\//).default('/'),
  created: SeedTime.optional(),
  /** Custom field values, as the User resource's `customSchemas` (schemas from `identity.schemas`). */
  customSchemas: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
})
/** A custom user schema (Directory `schemas`), as schemas.insert takes it. */
const SeedUserSchema = z.object({
  schemaName: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/),
  displayName: z.string().optional(),
  fields: z
    .array(
      z.object({
        fieldName: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/),
        fieldType: z.enum(FIELD_TYPES),
        displayName: z.string().optional(),
        multiValued: z.boolean().default(false),
        indexed: z.boolean().default(true),
        readAccessType: z.enum(READ_ACCESS).default('ALL_DOMAIN_USERS'),
      }),
    )
    .min(1),
})
/** An organizational unit (its missing ancestors are made too); units users name are made without being listed. */
const SeedOrgUnit = z.object({
  path: z.string().regex(/^\/[^/]/),
  description: z.string().default(''),
})
const SeedGroup = z.object({
  email: z.email(),
  name: z.string().min(1),
  description: z.string().default(''),
  members: z
    .array(
      z.object({
        email: z.email(),
        role: z.enum(['OWNER', 'MANAGER', 'MEMBER']).default('MEMBER'),
      }),
    )
    .default([]),
})

/** A custom admin role: privileges from the catalog (store/roles.ts), by name (`USERS_RETRIEVE`, `GROUPS_ALL`, …). */
const SeedAdminRole = z.object({
  name: z.string().min(1).max(100),
  description: z.string().default(''),
  privileges: z.array(z.string()).min(1),
})
/** A role (pre-built by its name, `_GROUPS_ADMIN_ROLE`, or custom) given to a user or a group, over all or a unit. */
const SeedRoleAssignment = z
  .object({
    role: z.string(),
    user: z.string().optional(),
    group: z.email().optional(),
    orgUnitPath: z.string().regex(/^\//).optional(),
  })
  .refine((a) => (a.user === undefined) !== (a.group === undefined), { message: 'give exactly one of user and group' })

/** An app password a user made (`asps`): the app's name, when made and when last used (never, if left out). */
const SeedAppPassword = z.object({
  user: z.string(),
  name: z.string().min(1).max(100),
  created: SeedTime.optional(),
  lastUsed: SeedTime.optional(),
})

export const identitySeedSchema = z
  .object({
    clients: z.array(SeedClient).default([]),
    grants: z.array(SeedGrant).default([]),
    tokenScopes: z.array(SeedTokenScopes).default([]),
    users: z.array(SeedDirectoryUser).default([]),
    /** Custom user schemas; users' values are `users[].customSchemas`. */
    schemas: z.array(SeedUserSchema).default([]),
    orgUnits: z.array(SeedOrgUnit).default([]),
    groups: z.array(SeedGroup).default([]),
    /**
     * Users (not super admins) holding a delegated admin role with the Calendar resource privileges: they may read and
     * manage buildings, features and rooms through `resources.*` and nothing else (docs/decisions/0250).
     */
    resourceAdmins: z.array(z.string()).default([]),
    /** Custom admin roles and role assignments (docs/decisions/0468); super admins are `users[].admin`. */
    adminRoles: z.array(SeedAdminRole).default([]),
    roleAssignments: z.array(SeedRoleAssignment).default([]),
    /** App passwords, and the users who hold a set of ten backup codes (`verificationCodes`). */
    appPasswords: z.array(SeedAppPassword).default([]),
    backupCodes: z.array(z.string()).default([]),
    ...serviceAccountSeedFields,
  })
  .default({
    clients: [],
    grants: [],
    tokenScopes: [],
    users: [],
    schemas: [],
    orgUnits: [],
    groups: [],
    resourceAdmins: [],
    adminRoles: [],
    roleAssignments: [],
    appPasswords: [],
    backupCodes: [],
    serviceAccounts: [],
    iamBindings: [],
    delegations: [],
  })
export type IdentitySeed = z.infer<typeof identitySeedSchema>

/** `<12 digits>-<32 base36>.apps.googleusercontent.com`, derived from the world's id salt and the seed key. */
export function deriveClientId(db: Db, key: string): string {
  const salt = getMeta(db, 'id_salt') ?? ''
  const h = createHash('sha256').update(`${salt}\u0000oauth-client\u0000${key}`).digest()
  const num = (h.readBigUInt64BE(0) % 10n ** 12n).toString().padStart(12, '0')
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz'
  const tail = [...h.subarray(8, 40)].map((b) => alphabet[b % 36]).join('')
  return `${num}-${tail}.apps.googleusercontent.com`
}

export function seedIdentity(world: World, seed: IdentitySeed, ctx: SeedContext) {
  world.tx((db) => {
    const ids = new Map<string, string>()
    seed.clients.forEach((cl, i) => {
      if (ids.has(cl.key)) throw new Error(`identity.clients[${i}].key: duplicate key "${cl.key}"`)
      const clientId = cl.clientId ?? deriveClientId(db, cl.key)
      ids.set(cl.key, clientId)
      db.insert(identityClients)
        .values({
          clientId,
          name: cl.name,
          redirectUris: JSON.stringify(cl.redirectUris),
          allowedScopes: JSON.stringify(normalizeScopes(cl.scopes)),
          createdMs: ctx.nowMs,
        })
        .run()
    })
    seed.grants.forEach((g, i) => {
      const path = `identity.grants[${i}]`
      const user = ctx.user(g.user, `${path}.user`)
      const clientId = ids.get(g.client) ?? [...ids.values()].find((id) => id === g.client)
      if (!clientId) throw new Error(`${path}.client: no client "${g.client}" in identity.clients`)
      const created = ctx.time(g.created)
      db.insert(identityGrants)
        .values({
          userId: user.id,
          clientId,
          scopes: normalizeScopes(g.scopes).join(' '),
          createdMs: created,
          lastUsedMs: g.lastUsed ? ctx.time(g.lastUsed) : created,
        })
        .onConflictDoNothing()
        .run()
    })
    const yearBefore = ctx.nowMs - 365 * 86_400_000
    for (const u of ctx.users) saveFacts(db, { ...factsOf(db, u.id), createdMs: yearBefore })
    for (const unit of seed.orgUnits) {
      const made = ensureUnitPath(db, unit.path)
      if (unit.description) saveUnit(db, made, { ...made, description: unit.description })
    }
    seedUserSchemas(db, seed)
    seed.users.forEach((d, i) => {
      const user = ctx.user(d.user, `identity.users[${i}].user`)
      if (d.customSchemas) {
        try {
          for (const [id, values] of customValuesIn(db, user.id, d.customSchemas))
            saveUserValues(db, user.id, id, values)
        } catch (e) {
          throw new Error(`identity.users[${i}].customSchemas: ${(e as Error).message}`)
        }
      }
      saveFacts(db, {
        ...factsOf(db, user.id),
        suspended: d.suspended,
        suspensionReason: d.suspended ? 'ADMIN' : null,
        orgUnitPath: ensureUnitPath(db, d.orgUnitPath).path,
        ...(d.created ? { createdMs: ctx.time(d.created) } : {}),
      })
    })
    const groups = seed.groups.map((g, i) => {
      const taken = ctx.users.some((u) => u.email.toLowerCase() === g.email.toLowerCase())
      if (taken) throw new Error(`identity.groups[${i}].email: ${g.email} is a user's address`)
      return insertGroup(db, { email: g.email, name: g.name, description: g.description })
    })
    seed.groups.forEach((g, i) =>
      g.members.forEach((m, j) => {
        if (g.members.findIndex((x) => x.email.toLowerCase() === m.email.toLowerCase()) !== j) {
          throw new Error(`identity.groups[${i}].members[${j}].email: duplicate member ${m.email}`)
        }
        addMember(db, groups[i]!.id, m.email, m.role)
      }),
    )
    seed.resourceAdmins.forEach((ref, i) => {
      const user = ctx.user(ref, `identity.resourceAdmins[${i}]`)
      db.insert(identityRoles).values({ userId: user.id, role: 'calendar-resources' }).onConflictDoNothing().run()
    })
    seedAdminRoles(db, seed, ctx)
    seed.appPasswords.forEach((a, i) => {
      const user = ctx.user(a.user, `identity.appPasswords[${i}].user`)
      // A password made a month before the world's clock unless the seed says when.
      const created = a.created ? ctx.time(a.created) : ctx.nowMs - 30 * 86_400_000
      insertAppPassword(db, user.id, a.name, created, a.lastUsed ? ctx.time(a.lastUsed) : null)
    })
    seed.backupCodes.forEach((ref, i) => generateBackupCodes(db, ctx.user(ref, `identity.backupCodes[${i}]`).id))
    seedServiceAccounts(db, seed, ctx)
    seed.tokenScopes.forEach((t, i) => {
      const user = ctx.user(t.user, `identity.tokenScopes[${i}].user`)
      db.update(worldTokens)
        .set({ scopes: normalizeScopes(t.scopes).join(',') })
        .where(and(eq(worldTokens.userId, user.id), eq(worldTokens.kind, 'google')))
        .run()
    })
  })
}

/** Custom user schemas, in the order the seed lists them (ids from the world's id salt, as schemas.insert's). */
function seedUserSchemas(db: Db, seed: IdentitySeed) {
  seed.schemas.forEach((sch, i) => {
    const at = `identity.schemas[${i}]`
    if (findSchema(db, sch.schemaName)) throw new Error(`${at}.schemaName: a schema named ${sch.schemaName} exists`)
    const names = sch.fields.map((f) => f.fieldName.toLowerCase())
    if (new Set(names).size !== names.length) throw new Error(`${at}.fields: a field name is given twice`)
    const schemaId = newSchemaId(db, sch.schemaName)
    saveSchema(db, {
      schemaId,
      schemaName: sch.schemaName,
      displayName: sch.displayName ?? sch.schemaName,
      fields: sch.fields.map((f) => ({
        ...f,
        fieldId: fieldIdOf(db, schemaId, f.fieldName),
        displayName: f.displayName ?? f.fieldName,
      })),
    })
  })
}

/** Custom roles, then assignments of pre-built or custom roles by name, in the order the seed lists them. */
function seedAdminRoles(db: Db, seed: IdentitySeed, ctx: SeedContext) {
  seed.adminRoles.forEach((r, i) => {
    const at = `identity.adminRoles[${i}]`
    if (listRoles(db).some((x) => x.name.toLowerCase() === r.name.toLowerCase()))
      throw new Error(`${at}.name: a role named ${r.name} exists`)
    r.privileges.forEach((p, j) => {
      if (!knownPrivilege(ADMIN_SERVICE.id, p)) throw new Error(`${at}.privileges[${j}]: unknown privilege ${p}`)
    })
    const privileges = r.privileges.map((privilegeName) => ({ serviceId: ADMIN_SERVICE.id, privilegeName }))
    insertRole(db, r.name, r.description, privileges)
  })
  seed.roleAssignments.forEach((a, i) => {
    const at = `identity.roleAssignments[${i}]`
    const role = listRoles(db).find((x) => x.name === a.role)
    if (!role) throw new Error(`${at}.role: no role named ${a.role}`)
    if (role.superAdmin) throw new Error(`${at}.role: super admins are identity users with admin: true`)
    const group = a.group === undefined ? undefined : findGroupByEmail(db, a.group)
    if (a.group !== undefined && !group) throw new Error(`${at}.group: no group ${a.group}`)
    const assignee = group
      ? { assigneeType: 'group' as const, assigneeId: group.id }
      : { assigneeType: 'user' as const, assigneeId: ctx.user(a.user!, `${at}.user`).id }
    const unit = a.orgUnitPath === undefined ? undefined : ensureUnitPath(db, a.orgUnitPath)
    insertAssignment(db, {
      roleId: role.id,
      ...assignee,
      scopeType: unit ? 'ORG_UNIT' : 'CUSTOMER',
      orgUnitId: unit ? unit.id : null,
    })
  })
}
