import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/** OAuth clients registered in the workspace (third-party and internal apps). */
export const identityClients = sqliteTable('identity_clients', {
  clientId: text('client_id').primaryKey(),
  name: text('name').notNull(),
  /** JSON array of exact redirect URIs. */
  redirectUris: text('redirect_uris').notNull(),
  /** JSON array of the scopes the client may ask for (empty: any scope). */
  allowedScopes: text('allowed_scopes').notNull(),
  createdMs: integer('created_ms').notNull(),
})

/** Connected apps: what a user granted a client (one row per user and client), and when it was last used. */
export const identityGrants = sqliteTable(
  'identity_grants',
  {
    userId: text('user_id').notNull(),
    clientId: text('client_id').notNull(),
    /** Space-separated, sorted. */
    scopes: text('scopes').notNull(),
    createdMs: integer('created_ms').notNull(),
    lastUsedMs: integer('last_used_ms').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.clientId] })],
)

/** Authorization codes (single use, ten minutes). The code a client sees is `4/0.<world>.<id><mac>`. */
export const identityCodes = sqliteTable('identity_codes', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  clientId: text('client_id').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  scopes: text('scopes').notNull(),
  codeChallenge: text('code_challenge'),
  challengeMethod: text('challenge_method'),
  nonce: text('nonce'),
  offline: integer('offline', { mode: 'boolean' }).notNull(),
  expiresMs: integer('expires_ms').notNull(),
  used: integer('used', { mode: 'boolean' }).notNull().default(false),
})

/** Refresh tokens (`1//0.<world>.<id><mac>`), alive until revoked with their grant. */
export const identityRefreshTokens = sqliteTable(
  'identity_refresh_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    clientId: text('client_id').notNull(),
    scopes: text('scopes').notNull(),
    revoked: integer('revoked', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [index('identity_refresh_by_grant').on(t.userId, t.clientId)],
)

/** Access tokens issued to clients: a `world_tokens` row (key) plus the client, refresh token and expiry. */
export const identityAccessTokens = sqliteTable(
  'identity_access_tokens',
  {
    key: text('key').primaryKey(),
    userId: text('user_id').notNull(),
    clientId: text('client_id').notNull(),
    refreshId: text('refresh_id'),
    expiresMs: integer('expires_ms').notNull(),
  },
  (t) => [index('identity_access_by_grant').on(t.userId, t.clientId)],
)

/** Directory facts about a user that the kernel's world_users does not hold. */
export const identityUsers = sqliteTable('identity_users', {
  userId: text('user_id').primaryKey(),
  suspended: integer('suspended', { mode: 'boolean' }).notNull().default(false),
  suspensionReason: text('suspension_reason'),
  orgUnitPath: text('org_unit_path').notNull().default('/'),
  /** Deleted users keep their data (other services refer to them) but vanish from the directory and lose access. */
  deletedMs: integer('deleted_ms'),
  createdMs: integer('created_ms').notNull(),
  changePasswordAtNextLogin: integer('change_password', { mode: 'boolean' }).notNull().default(false),
  /** When an administrator last set the password (users.insert/update/patch `password`); null: never here. */
  passwordSetMs: integer('password_set_ms'),
})

/**
 * The aliases a deleted user had (world_aliases frees them at the deletion): `users.undelete` gives them back.
 * `added_seq` keeps their order.
 */
export const identityDeletedAliases = sqliteTable(
  'identity_deleted_aliases',
  {
    userId: text('user_id').notNull(),
    alias: text('alias').notNull(),
    addedSeq: integer('added_seq').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.alias] })],
)

/**
 * Organizational units below the root (the root, `/`, is implied: every workspace has it). `path` is the unit's full
 * path (`/Sales/EMEA`), rewritten for the whole subtree when a unit is renamed or moved; users name their unit by
 * path (identity_users.org_unit_path). `id` is the Directory's `orgUnitId` without its `id:` prefix.
 */
export const identityOrgUnits = sqliteTable('identity_org_units', {
  id: text('id').primaryKey(),
  path: text('path').notNull(),
  description: text('description').notNull().default(''),
  blockInheritance: integer('block_inheritance', { mode: 'boolean' }).notNull().default(false),
})

/** Admin SDK Data Transfer requests: what moved from one user to another, per application. */
export const identityTransfers = sqliteTable('identity_transfers', {
  id: text('id').primaryKey(),
  oldOwnerId: text('old_owner_id').notNull(),
  newOwnerId: text('new_owner_id').notNull(),
  /**
   * JSON array of { applicationId, applicationTransferParams: [{ key, value: string[] }], applicationTransferStatus }.
   */
  applications: text('applications').notNull(),
  status: text('status').notNull(),
  requestMs: integer('request_ms').notNull(),
})

/**
 * Delegated admin roles held by users who are not super admins. The one modelled is `calendar-resources`: a custom
 * role with the Admin console's Calendar resource privileges (read and manage buildings, features and rooms through
 * the Directory API's `resources.*`), as an office manager holds it (docs/decisions/0250).
 */
export const identityRoles = sqliteTable(
  'identity_roles',
  { userId: text('user_id').notNull(), role: text('role', { enum: ['calendar-resources'] }).notNull() },
  (t) => [primaryKey({ columns: [t.userId, t.role] })],
)

/**
 * Custom admin roles (Directory `roles`): a name unique in the workspace and the privileges it grants. The system
 * roles are fixed (store/roles.ts) and not stored. `id` is the numeric roleId.
 */
export const identityCustomRoles = sqliteTable('identity_custom_roles', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  /** JSON array of { serviceId, privilegeName }. */
  privileges: text('privileges').notNull(),
  seq: integer('seq').notNull(),
})

/**
 * Admin role assignments (Directory `roleAssignments`) other than super admins', which are the users' `isAdmin`.
 * `assigneeId` is a world user id or a group id; `orgUnitId` (bare, no `id:`) when `scopeType` is ORG_UNIT.
 */
export const identityRoleAssignments = sqliteTable(
  'identity_role_assignments',
  {
    id: text('id').primaryKey(),
    roleId: text('role_id').notNull(),
    assigneeType: text('assignee_type', { enum: ['user', 'group'] }).notNull(),
    assigneeId: text('assignee_id').notNull(),
    scopeType: text('scope_type', { enum: ['CUSTOMER', 'ORG_UNIT'] }).notNull(),
    orgUnitId: text('org_unit_id'),
    seq: integer('seq').notNull(),
  },
  (t) => [index('identity_role_assignments_assignee').on(t.assigneeId)],
)

/**
 * App passwords (Directory `asps`): 16-character passwords a user made for an app that cannot sign in with Google.
 * `codeId` counts per user from 1; `lastUsedMs` is null until the app signs in.
 */
export const identityAppPasswords = sqliteTable(
  'identity_app_passwords',
  {
    userId: text('user_id').notNull(),
    codeId: integer('code_id').notNull(),
    name: text('name').notNull(),
    createdMs: integer('created_ms').notNull(),
    lastUsedMs: integer('last_used_ms'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeId] })],
)

/** A user's current backup verification codes (Directory `verificationCodes`): eight digits each, ten a set. */
export const identityBackupCodes = sqliteTable(
  'identity_backup_codes',
  { userId: text('user_id').notNull(), seq: integer('seq').notNull(), code: text('code').notNull() },
  (t) => [primaryKey({ columns: [t.userId, t.seq] })],
)

/**
 * A user's profile photo (Directory `users.photos`): the image bytes as uploaded, their format and size in pixels.
 */
export const identityUserPhotos = sqliteTable('identity_user_photos', {
  userId: text('user_id').primaryKey(),
  mimeType: text('mime_type').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  data: text('data').notNull(),
})

/**
 * The customer's secondary domains and domain aliases (Directory `domains`, `domainAliases`) added through the API;
 * the primary domain is world_meta `domain`. `parent` is null for a secondary domain, the parent domain's name for
 * an alias. None is ever verified (no DNS here), so none makes an address the workspace's.
 */
export const identityDomains = sqliteTable('identity_domains', {
  name: text('name').primaryKey(),
  parent: text('parent'),
  createdMs: integer('created_ms').notNull(),
})

/**
 * The customer's custom user schemas (Directory `schemas`): `fields` is the JSON list of field specs, each with its
 * `fieldId` (stable while the field keeps its name) and Google's attributes.
 */
export const identityUserSchemas = sqliteTable('identity_user_schemas', {
  schemaId: text('schema_id').primaryKey(),
  schemaName: text('schema_name').notNull(),
  displayName: text('display_name').notNull(),
  fields: text('fields').notNull(),
})

/** A user's values in one custom schema: JSON `{ <fieldId>: value | [{ value, type?, customType? }] }`. */
export const identityUserSchemaValues = sqliteTable(
  'identity_user_schema_values',
  { userId: text('user_id').notNull(), schemaId: text('schema_id').notNull(), values: text('values').notNull() },
  (t) => [primaryKey({ columns: [t.userId, t.schemaId] })],
)

/**
 * Google Cloud service accounts (`<name>@<project>.iam.gserviceaccount.com`). `uniqueId` is the 21-digit number
 * Google also calls the account's OAuth client id: the one an admin authorises for domain-wide delegation.
 */
export const identityServiceAccounts = sqliteTable('identity_service_accounts', {
  email: text('email').primaryKey(),
  projectId: text('project_id').notNull(),
  uniqueId: text('unique_id').notNull(),
  displayName: text('display_name').notNull(),
  description: text('description').notNull(),
  disabled: integer('disabled', { mode: 'boolean' }).notNull().default(false),
})

/**
 * Service-account keys. Only the public facts live here: the RSA key itself is a function of the world's secret and
 * the key id (envs/identity/sa-keys.ts), so a world stays byte-identical per seed and a snapshot holds no secret.
 */
export const identityServiceAccountKeys = sqliteTable(
  'identity_sa_keys',
  {
    keyId: text('key_id').primaryKey(),
    email: text('email').notNull(),
    /** USER_MANAGED (keys.create) or SYSTEM_MANAGED (the Google-held key signJwt uses). */
    keyType: text('key_type').notNull(),
    validAfterMs: integer('valid_after_ms').notNull(),
    validBeforeMs: integer('valid_before_ms').notNull(),
    deletedMs: integer('deleted_ms'),
  },
  (t) => [index('identity_sa_keys_by_account').on(t.email)],
)

/** IAM role bindings on a service account or a project (`resource` is the account's email or `projects/<id>`). */
export const identityIamBindings = sqliteTable(
  'identity_iam_bindings',
  {
    resource: text('resource').notNull(),
    role: text('role').notNull(),
    userId: text('user_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.resource, t.role, t.userId] })],
)

/** Domain-wide delegation: the admin console's "API controls" list (client id → scopes it may get for any user). */
export const identityDelegations = sqliteTable('identity_delegations', {
  clientId: text('client_id').primaryKey(),
  /** Space-separated, sorted. */
  scopes: text('scopes').notNull(),
})

export const identityTables = [
  identityClients,
  identityGrants,
  identityCodes,
  identityRefreshTokens,
  identityAccessTokens,
  identityUsers,
  identityDeletedAliases,
  identityOrgUnits,
  identityTransfers,
  identityRoles,
  identityCustomRoles,
  identityRoleAssignments,
  identityAppPasswords,
  identityBackupCodes,
  identityUserPhotos,
  identityDomains,
  identityUserSchemas,
  identityUserSchemaValues,
  identityServiceAccounts,
  identityServiceAccountKeys,
  identityIamBindings,
  identityDelegations,
]
