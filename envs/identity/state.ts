import { createHash } from 'node:crypto'
import type { Json, ServiceState } from '../core/service.ts'
import type { World } from '../core/world.ts'
import { selectRows, stmt } from '../core/db.ts'
import { allowedScopesOf, listClients, redirectUrisOf } from './store/oauth.ts'
import { identityGrants } from './schema.ts'
import { listUsers } from '../core/users.ts'
import { factsOf, inDomain } from './store/users.ts'
import { listGroups, membersOf } from './store/groups.ts'
import { resourceEntities } from './state-resources.ts'
import { keysOf, listDelegations, listServiceAccounts } from './store/service-accounts.ts'
import { customerId, googleUserId } from './ids.ts'
import { listUnits } from './store/org-units.ts'
import { aliasEntities } from './store/aliases.ts'
import { contactOf } from './store/customer.ts'
import { signInCodeEntities } from './store/sign-in-codes.ts'
import { photoEntities } from './store/photos.ts'
import { domainEntities } from './store/domains.ts'
import { customSchemasOf, schemaEntities } from './store/user-schemas.ts'

/*
 * dump() shape — version 1:
 * { version: 1, entities: {
 *     clients: { <clientId>: { clientId, name, redirectUris: string[], allowedScopes: string[] } },
 *     grants:  { <userId> <clientId>: { userId, clientId, clientName, scopes: string[], createdMs, lastUsedMs,
 *                                       liveAccessTokens: number, liveRefreshTokens: number } },
 *     users:   { <userId>: { userId, email, name, title, isAdmin, suspended, orgUnitPath,
 *                            changePasswordAtNextLogin, passwordSetMs, deleted: boolean, directoryId } },
 *                 // domain accounts; directoryId: Directory's numeric `id`, which a userKey may give; title,
 *                 // changePasswordAtNextLogin and passwordSetMs (when an admin set the password, else null) are
 *                 // what users.update/patch also set (docs/decisions/0470); customSchemas (only when the user
 *                 // holds custom field values):
 *                 //   { <schemaName>: { <fieldName>: value | [{ value, type?, customType? }] } }
 *     customer: { <customer id>: { alternateEmail, phoneNumber, language, postalAddress } },   // contact facts
 *     orgUnits: { <path>: { path, orgUnitId, description } },   // units below the root (`/` is always there)
 *     groups:  { <group email>: { email, name, description, members: [{ email, role, type }] } },
 *     aliases: { <alias>: { alias, kind: 'user' | 'group', owner } },   // owner: the user's id or the group's email
 *     roles:   { <userId> <role>: { userId, email, role } },   // delegated admin roles ('calendar-resources'),
 *              // and role assignments: { <user or group id> <roleName>[ <unit path>]: { userId ('' for a group),
 *              //   email (the user's or the group's), role: roleName, orgUnitPath? } } (super admins: users' isAdmin)
 *     customRoles: { <roleName>: { roleName, description, privileges: string[] } },
 *     appPasswords: { <userId> <codeId>: { userId, codeId, name } },   // app passwords (asps) not revoked
 *     backupCodes:  { <userId>: { userId, count } },   // users holding current backup verification codes
 *     photos:  { <userId>: { userId, mimeType, width, height, sha256 } },   // profile photos (users.photos);
 *              // sha256: the first 16 hex digits of the digest of the image's base64
 *     domains: { <name>: { name, kind: 'secondary' | 'alias', parent } },   // added beside the primary domain
 *     schemas: { <schemaName>: { schemaName, displayName, fields: [{ fieldName, fieldType, multiValued, indexed,
 *                                                                  readAccessType }] } },   // custom user schemas
 *     buildings: { <buildingId>: { buildingId, name, floorNames: string[] } },
 *     features:  { <name>: { name } },
 *     resources: { <resourceId>: { resourceId, email, name, generatedName, category, capacity, buildingId, floorName,
 *                                  features: string[] } },
 *     serviceAccounts: { <email>: { email, projectId, uniqueId, disabled, userManagedKeys: string[] (live key ids) } },
 *     delegations: { <client id>: { clientId, scopes: string[] } },
 *     delegatedTokens: { <userId> <client id>: { userId, clientId, issued: number } } } }
 *       (access tokens minted by a service account's JWT-bearer grant, per user acted as: `serviceAccount:<email>`
 *        for the account's own)
 * Data Transfer requests are left out: they are a log of requests (like the action log), and what they moved is in
 * Drive's and Calendar's state. A repeated transfer that finds nothing to move leaves the world as it was.
 */
export function dumpIdentity(world: World): ServiceState {
  const db = world.db
  const clients = listClients(db)
  const names = new Map(clients.map((c) => [c.clientId, c.name]))
  const live = (sql: string, u: string, cl: string) => (stmt(db, sql).get(u, cl) as { n: number }).n
  const grants = selectRows(db, identityGrants, {}).sort(
    (a, b) => a.userId.localeCompare(b.userId) || a.clientId.localeCompare(b.clientId),
  )
  const customOf = (userId: string): Record<string, Json> => {
    const custom = customSchemasOf(db, userId)
    return Object.keys(custom).length > 0 ? { customSchemas: custom } : {}
  }
  return {
    version: 1,
    entities: {
      clients: Object.fromEntries(
        clients.map((c) => [
          c.clientId,
          {
            clientId: c.clientId,
            name: c.name,
            redirectUris: redirectUrisOf(c),
            allowedScopes: allowedScopesOf(c),
          },
        ]),
      ),
      grants: Object.fromEntries(
        grants.map((g) => [
          `${g.userId} ${g.clientId}`,
          {
            userId: g.userId,
            clientId: g.clientId,
            clientName: names.get(g.clientId) ?? '',
            scopes: g.scopes.split(' '),
            createdMs: g.createdMs,
            lastUsedMs: g.lastUsedMs,
            liveAccessTokens: live(
              `SELECT count(*) AS n FROM identity_access_tokens a JOIN world_tokens t ON t.key = a.key
          WHERE a.user_id = ? AND a.client_id = ? AND t.revoked = 0`,
              g.userId,
              g.clientId,
            ),
            liveRefreshTokens: live(
              'SELECT count(*) AS n FROM identity_refresh_tokens WHERE user_id = ? AND client_id = ? AND revoked = 0',
              g.userId,
              g.clientId,
            ),
          },
        ]),
      ),
      users: Object.fromEntries(
        listUsers(db)
          .filter((u) => inDomain(db, u))
          .map((u) => {
            const f = factsOf(db, u.id)
            return [
              u.id,
              {
                userId: u.id,
                email: u.email,
                name: u.name,
                title: u.title,
                isAdmin: u.isAdmin,
                suspended: f.suspended,
                orgUnitPath: f.orgUnitPath,
                changePasswordAtNextLogin: f.changePasswordAtNextLogin,
                passwordSetMs: f.passwordSetMs,
                deleted: f.deletedMs !== null,
                directoryId: googleUserId(db, u.id),
                ...customOf(u.id),
              },
            ]
          }),
      ),
      ...resourceEntities(world),
      // The workspace's contact facts (0470): its alternate (recovery) address above all, which an admin may change.
      customer: { [customerId(db)]: customerEntity(contactOf(db)) },
      orgUnits: Object.fromEntries(
        listUnits(db).map((u) => [u.path, { path: u.path, orgUnitId: `id:${u.id}`, description: u.description }]),
      ),
      groups: Object.fromEntries(
        listGroups(db).map((g) => [
          g.email,
          {
            email: g.email,
            name: g.name,
            description: g.description,
            members: membersOf(db, g.id).map((m) => ({ email: m.email, role: m.role, type: m.type })),
          },
        ]),
      ),
      aliases: aliasEntities(db),
      ...signInCodeEntities(db),
      photos: photoEntities(db, (data) => createHash('sha256').update(data).digest('hex').slice(0, 16)),
      domains: domainEntities(db),
      schemas: schemaEntities(db),
      serviceAccounts: Object.fromEntries(
        listServiceAccounts(db).map((sa) => [
          sa.email,
          {
            email: sa.email,
            projectId: sa.projectId,
            uniqueId: sa.uniqueId,
            disabled: sa.disabled,
            userManagedKeys: keysOf(db, sa.email)
              .filter((k) => k.keyType === 'USER_MANAGED')
              .map((k) => k.keyId),
          },
        ]),
      ),
      delegatedTokens: Object.fromEntries(
        (
          stmt(
            db,
            `SELECT a.user_id AS userId, a.client_id AS clientId,
          count(*) AS issued FROM identity_access_tokens a JOIN identity_service_accounts s ON s.unique_id = a.client_id
          GROUP BY a.user_id, a.client_id ORDER BY a.user_id, a.client_id`,
          ).all() as { userId: string; clientId: string; issued: number }[]
        ).map((t) => [`${t.userId} ${t.clientId}`, t]),
      ),
      delegations: Object.fromEntries(
        listDelegations(db).map((d) => [
          d.clientId,
          {
            clientId: d.clientId,
            scopes: d.scopes.split(' ').filter(Boolean),
          },
        ]),
      ),
    },
  }
}

/** The customer's contact facts as the dump shows them (null where unset). */
function customerEntity(c: ReturnType<typeof contactOf>) {
  return {
    alternateEmail: c.alternateEmail ?? null,
    phoneNumber: c.phoneNumber ?? null,
    language: c.language ?? 'en',
    postalAddress: c.postalAddress ?? null,
  }
}
