import { blob, index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { adminTables } from './schema-admin.ts'
import { appTables } from './schema-apps.ts'

// Storage shape, not wire shape: map.ts turns rows into Slack objects. Slack ids (U…, C…, F…) are
// the keys; `worldUserId` links a Slack user to its world user (and token).

/** A Slack member (person or bot user). */
export const slackUsers = sqliteTable('slack_users', {
  id: text('id').primaryKey(),
  worldUserId: text('world_user_id').notNull().unique(),
  handle: text('handle').notNull(),
  isBot: integer('is_bot').notNull().default(0),
  botId: text('bot_id'),
  displayName: text('display_name').notNull().default(''),
  statusText: text('status_text').notNull().default(''),
  statusEmoji: text('status_emoji').notNull().default(''),
  phone: text('phone').notNull().default(''),
  /** Title set by users.profile.set; null: the world user's title. */
  title: text('title'),
  presence: text('presence').notNull().default('active'),
  updated: integer('updated').notNull(),
  /** regular | admin | owner | primary_owner (admin.users.setAdmin/setOwner/setRegular). */
  role: text('role').notNull().default('regular'),
  /** Deactivated by admin.users.remove: tokens answer `account_inactive`. */
  deleted: integer('deleted').notNull().default(0),
  /** '' | restricted | ultra_restricted (guests, admin.users.assign/invite). */
  guest: text('guest').notNull().default(''),
  expiration: integer('expiration').notNull().default(0),
  /** Avatar hash set by users.setPhoto ('' = default avatar). */
  photo: text('photo').notNull().default(''),
  /** admin.users.session.setSettings JSON ({} = workspace defaults). */
  sessionSettings: text('session_settings').notNull().default('{}'),
})

/** A conversation: public/private channel, IM or MPIM. */
export const slackChannels = sqliteTable('slack_channels', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  kind: text('kind').notNull(), // channel | group | im | mpim
  creator: text('creator').notNull(),
  created: integer('created').notNull(),
  updated: integer('updated').notNull(),
  isArchived: integer('is_archived').notNull().default(0),
  isGeneral: integer('is_general').notNull().default(0),
  topic: text('topic').notNull().default(''),
  topicCreator: text('topic_creator').notNull().default(''),
  topicLastSet: integer('topic_last_set').notNull().default(0),
  purpose: text('purpose').notNull().default(''),
  purposeCreator: text('purpose_creator').notNull().default(''),
  purposeLastSet: integer('purpose_last_set').notNull().default(0),
  previousNames: text('previous_names').notNull().default('[]'),
  /** admin.conversations.setConversationPrefs JSON (who_can_post, can_thread, can_huddle). */
  prefs: text('prefs').notNull().default('{}'),
  /** Custom retention in days (0 = workspace default). */
  retention: integer('retention').notNull().default(0),
})

/** Membership of a user in a conversation, with its read marker; `open` for IM sidebar state. */
export const slackMembers = sqliteTable(
  'slack_members',
  {
    channelId: text('channel_id').notNull(),
    userId: text('user_id').notNull(),
    lastRead: text('last_read').notNull().default('0000000000.000000'),
    isOpen: integer('is_open').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.userId] }), index('slack_members_by_user').on(t.userId)],
)

/** A message or thread reply. `ts` is unique per world. */
export const slackMessages = sqliteTable(
  'slack_messages',
  {
    channelId: text('channel_id').notNull(),
    ts: text('ts').notNull(),
    userId: text('user_id').notNull(),
    botId: text('bot_id'),
    subtype: text('subtype'),
    text: text('text').notNull(),
    blocks: text('blocks'),
    attachments: text('attachments'),
    files: text('files'),
    threadTs: text('thread_ts'),
    replyBroadcast: integer('reply_broadcast').notNull().default(0),
    editedTs: text('edited_ts'),
    editedUser: text('edited_user'),
    /** JSON of a system message's subtype fields (`topic`, `purpose`, `name`/`old_name`, `inviter`, `members`). */
    meta: text('meta'),
    /** JSON of the post's message metadata `{event_type, event_payload}` (chat.postMessage/update `metadata`). */
    metadata: text('metadata'),
    /** A bot's post shown under another name (chat.postMessage `username`). */
    username: text('username'),
  },
  (t) => [
    primaryKey({ columns: [t.channelId, t.ts] }),
    index('slack_messages_by_thread').on(t.channelId, t.threadTs, t.ts),
  ],
)

/** One user's reaction on a message. */
export const slackReactions = sqliteTable(
  'slack_reactions',
  {
    channelId: text('channel_id').notNull(),
    ts: text('ts').notNull(),
    name: text('name').notNull(),
    userId: text('user_id').notNull(),
    seq: integer('seq').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.channelId, t.ts, t.name, t.userId] }),
    index('slack_reactions_by_user').on(t.userId),
  ],
)

/** A pinned message. */
export const slackPins = sqliteTable(
  'slack_pins',
  {
    channelId: text('channel_id').notNull(),
    ts: text('ts').notNull(),
    createdBy: text('created_by').notNull(),
    created: integer('created').notNull(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.ts] })],
)

/** A scheduled message; `status` pending → posted | deleted. */
export const slackScheduled = sqliteTable('slack_scheduled', {
  id: text('id').primaryKey(),
  channelId: text('channel_id').notNull(),
  userId: text('user_id').notNull(),
  botId: text('bot_id'),
  text: text('text').notNull(),
  blocks: text('blocks'),
  attachments: text('attachments'),
  threadTs: text('thread_ts'),
  postAt: integer('post_at').notNull(),
  created: integer('created').notNull(),
  status: text('status').notNull().default('pending'),
  postedTs: text('posted_ts'),
  /** The message metadata it will be posted with (JSON, checked by routes/metadata.ts), or null. */
  metadata: text('metadata'),
  /** A reply to be shown in the channel too (`reply_broadcast` with `thread_ts`): 1, else 0. */
  replyBroadcast: integer('reply_broadcast').notNull().default(0),
})

/** An uploaded file; `pending` until completeUploadExternal. */
export const slackFiles = sqliteTable('slack_files', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  name: text('name').notNull(),
  title: text('title').notNull(),
  mimetype: text('mimetype').notNull(),
  filetype: text('filetype').notNull(),
  size: integer('size').notNull(),
  data: blob('data', { mode: 'buffer' }),
  created: integer('created').notNull(),
  channels: text('channels').notNull().default('[]'),
  pending: integer('pending').notNull().default(0),
  publicShared: integer('public_shared').notNull().default(0),
  deleted: integer('deleted').notNull().default(0),
})

/** Which messages share a file (a message carrying it): Slack's `shares` on the file object, docs/decisions/0452. */
export const slackFileShares = sqliteTable(
  'slack_file_shares',
  { fileId: text('file_id').notNull(), channelId: text('channel_id').notNull(), ts: text('ts').notNull() },
  (t) => [primaryKey({ columns: [t.fileId, t.channelId, t.ts] })],
)

/**
 * A reminder; fired when the clock passes `time`. A recurring one (`recurrence`: Slack's JSON rule) moves `time` to
 * its next occurrence when it fires, counted from `anchor` (its first occurrence: the time of day and, monthly or
 * yearly, the date it keeps).
 */
export const slackReminders = sqliteTable('slack_reminders', {
  id: text('id').primaryKey(),
  creator: text('creator').notNull(),
  userId: text('user_id').notNull(),
  text: text('text').notNull(),
  time: integer('time').notNull(),
  completeTs: integer('complete_ts').notNull().default(0),
  fired: integer('fired').notNull().default(0),
  recurrence: text('recurrence'),
  anchor: integer('anchor'),
})

/** Saved items (stars) of a user. */
export const slackStars = sqliteTable(
  'slack_stars',
  {
    userId: text('user_id').notNull(),
    channelId: text('channel_id').notNull(),
    ts: text('ts').notNull().default(''),
    fileId: text('file_id').notNull().default(''),
    created: integer('created').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.channelId, t.ts, t.fileId] })],
)

/** Channel bookmarks. */
export const slackBookmarks = sqliteTable('slack_bookmarks', {
  id: text('id').primaryKey(),
  channelId: text('channel_id').notNull(),
  title: text('title').notNull(),
  link: text('link').notNull(),
  emoji: text('emoji').notNull().default(''),
  type: text('type').notNull().default('link'),
  created: integer('created').notNull(),
  updated: integer('updated').notNull(),
  userId: text('user_id').notNull(),
})

/** User groups (handles like @eng) and their members (JSON array of user ids). */
export const slackUsergroups = sqliteTable('slack_usergroups', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  handle: text('handle').notNull(),
  description: text('description').notNull().default(''),
  users: text('users').notNull().default('[]'),
  channels: text('channels').notNull().default('[]'),
  createdBy: text('created_by').notNull(),
  created: integer('created').notNull(),
  updated: integer('updated').notNull(),
  disabled: integer('disabled').notNull().default(0),
})

/** Do-not-disturb state per user. */
export const slackDnd = sqliteTable('slack_dnd', {
  userId: text('user_id').primaryKey(),
  snoozeEnd: integer('snooze_end').notNull().default(0),
})

/** Per-method call counts in the current rate-limit window (only when rate limiting is on). */
export const slackRateCounts = sqliteTable(
  'slack_rate_counts',
  {
    method: text('method').notNull(),
    userId: text('user_id').notNull(),
    window: integer('window').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.method, t.userId] })],
)

export const slackTables = [
  slackUsers,
  slackChannels,
  slackMembers,
  slackMessages,
  slackReactions,
  slackPins,
  slackScheduled,
  slackFiles,
  slackFileShares,
  slackReminders,
  slackStars,
  slackBookmarks,
  slackUsergroups,
  slackDnd,
  slackRateCounts,
  ...adminTables,
  ...appTables,
]
