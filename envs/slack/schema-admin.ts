import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

// Workspace administration state: custom emoji, invitations and invite requests, admin role
// assignments, client sessions, and usergroup default channels live in slack_usergroups.channels.

/** A custom emoji: an image URL or an alias of another emoji. */
export const slackEmoji = sqliteTable('slack_emoji', {
  name: text('name').primaryKey(),
  url: text('url').notNull().default(''),
  aliasFor: text('alias_for'),
  userId: text('user_id').notNull(),
  created: integer('created').notNull(),
})

/**
 * An invitation (admin.users.invite) or an invite request (kind `request`, from a member, pending admin
 * approval). status: pending → approved | denied | accepted.
 */
export const slackInvites = sqliteTable('slack_invites', {
  id: text('id').primaryKey(),
  kind: text('kind').notNull(), // invite | request
  email: text('email').notNull(),
  realName: text('real_name').notNull().default(''),
  channels: text('channels').notNull().default('[]'),
  message: text('message').notNull().default(''),
  guest: text('guest').notNull().default(''),
  requester: text('requester').notNull(),
  created: integer('created').notNull(),
  status: text('status').notNull().default('pending'),
  reviewer: text('reviewer'),
  reviewed: integer('reviewed').notNull().default(0),
})

/** An admin role assignment (admin.roles.*): role id × user, scoped to the workspace. */
export const slackRoleAssignments = sqliteTable(
  'slack_role_assignments',
  {
    roleId: text('role_id').notNull(),
    userId: text('user_id').notNull(),
    entityId: text('entity_id').notNull(),
    created: integer('created').notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.userId, t.entityId] })],
)

/** A signed-in client session of a user (admin.users.session.*, team.accessLogs). */
export const slackSessions = sqliteTable('slack_sessions', {
  id: integer('id').primaryKey(),
  userId: text('user_id').notNull(),
  client: text('client').notNull(), // web | desktop | mobile
  userAgent: text('user_agent').notNull(),
  ip: text('ip').notNull(),
  created: integer('created').notNull(),
  lastActive: integer('last_active').notNull(),
  revoked: integer('revoked').notNull().default(0),
})

/** A member's request to install an app (admin.apps.requests.*); status pending → approved | restricted | cancelled. */
export const slackAppRequests = sqliteTable('slack_app_requests', {
  id: text('id').primaryKey(),
  appId: text('app_id').notNull(),
  appName: text('app_name').notNull(),
  requester: text('requester').notNull(),
  message: text('message').notNull().default(''),
  scopes: text('scopes').notNull().default('[]'),
  created: integer('created').notNull(),
  status: text('status').notNull().default('pending'),
})

/** An admin's decision about an app: approved or restricted (admin.apps.approve/restrict/clearResolution). */
export const slackAppResolutions = sqliteTable('slack_app_resolutions', {
  appId: text('app_id').primaryKey(),
  appName: text('app_name').notNull(),
  status: text('status').notNull(),
  scopes: text('scopes').notNull().default('[]'),
  resolvedBy: text('resolved_by').notNull(),
  updated: integer('updated').notNull(),
})

/** An information barrier: members of `primary` may not DM members of the `barriered` usergroups. */
export const slackBarriers = sqliteTable('slack_barriers', {
  id: text('id').primaryKey(),
  primaryGroup: text('primary_group').notNull(),
  barriered: text('barriered').notNull(),
  subjects: text('subjects').notNull(),
  updated: integer('updated').notNull(),
})

/** Members assigned to an authentication policy (admin.auth.policy.*). */
export const slackAuthPolicy = sqliteTable(
  'slack_auth_policy',
  {
    policy: text('policy').notNull(),
    entityId: text('entity_id').notNull(),
    entityType: text('entity_type').notNull(),
    added: integer('added').notNull(),
  },
  (t) => [primaryKey({ columns: [t.policy, t.entityId] })],
)

export const adminTables = [
  slackEmoji,
  slackInvites,
  slackRoleAssignments,
  slackSessions,
  slackAppRequests,
  slackAppResolutions,
  slackBarriers,
  slackAuthPolicy,
]
