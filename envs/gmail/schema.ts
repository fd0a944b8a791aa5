import { blob, index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

// Storage shape, not wire shape: map.ts turns rows into Gmail resources.

/** One row per mailbox: its history counter (historyId grows monotonically per mailbox). */
export const mailboxes = sqliteTable('gmail_mailboxes', {
  userId: text('user_id').primaryKey(),
  historyId: integer('history_id').notNull(),
})

/** A message in one mailbox. `raw` is the exact RFC 822 source; `payload` the parsed part tree (JSON). */
export const messages = sqliteTable(
  'gmail_messages',
  {
    userId: text('user_id').notNull(),
    id: text('id').notNull(),
    threadId: text('thread_id').notNull(),
    internalDate: integer('internal_date').notNull(),
    historyId: integer('history_id').notNull(),
    raw: blob('raw', { mode: 'buffer' }).notNull(),
    payload: text('payload').notNull(),
    snippet: text('snippet').notNull(),
    subject: text('subject').notNull(),
    fromAddr: text('from_addr').notNull(),
    /** The From header's (first) address, lower-cased ('' when it has none): what `from:<address>` compares. */
    fromEmail: text('from_email').notNull(),
    toAddrs: text('to_addrs').notNull(),
    ccAddrs: text('cc_addrs').notNull(),
    bccAddrs: text('bcc_addrs').notNull(),
    deliveredTo: text('delivered_to').notNull(),
    messageIdHeader: text('message_id_header').notNull(),
    listId: text('list_id').notNull(),
    filenames: text('filenames').notNull(),
    hasAttachment: integer('has_attachment', { mode: 'boolean' }).notNull(),
    /** Words (query/words.ts) of the subject, from, to, cc, text body and attachment names, for free-text search. */
    searchText: text('search_text').notNull(),
    /** Words of the subject, for `subject:`. */
    subjectWords: text('subject_words').notNull(),
    size: integer('size').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.id] }),
    index('gmail_messages_by_thread').on(t.userId, t.threadId),
    // Covers messages.list: newest-first pages (keyset on internal_date, id) without reading message rows, and
    // judges `from:` and `subject:` there too, so such a search walks index entries only (docs/decisions/0298).
    // `from_email` last: a `from:<address>` under OR or NOT is judged here too (docs/decisions/0405).
    index('gmail_messages_by_date_from_subject').on(
      t.userId,
      t.internalDate,
      t.id,
      t.threadId,
      t.fromAddr,
      t.subjectWords,
      t.fromEmail,
    ),
    // `from:<address>` (and `from:me`) among a search's AND terms: one sender's messages, newest first, with what a
    // page and `subject:` read, so such a search walks that sender's entries only (docs/decisions/0405).
    index('gmail_messages_by_from').on(t.userId, t.fromEmail, t.internalDate, t.id, t.threadId, t.subjectWords),
    index('gmail_messages_by_msgid').on(t.userId, t.messageIdHeader),
  ],
)

/** Label membership, system labels (INBOX, UNREAD, …) included. */
export const messageLabels = sqliteTable(
  'gmail_message_labels',
  {
    userId: text('user_id').notNull(),
    messageId: text('message_id').notNull(),
    labelId: text('label_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.messageId, t.labelId] }),
    index('gmail_message_labels_by_label').on(t.userId, t.labelId),
  ],
)

export const labels = sqliteTable(
  'gmail_labels',
  {
    userId: text('user_id').notNull(),
    id: text('id').notNull(),
    name: text('name').notNull(),
    type: text('type', { enum: ['system', 'user'] }).notNull(),
    messageListVisibility: text('message_list_visibility'),
    labelListVisibility: text('label_list_visibility'),
    textColor: text('text_color'),
    backgroundColor: text('background_color'),
    /** The name as a clash is judged (`labelNameKey`: JavaScript's lower case), indexed for labels.create/update. */
    nameKey: text('name_key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.id] }), index('gmail_labels_by_name_key').on(t.userId, t.nameKey)],
)

export const attachments = sqliteTable(
  'gmail_attachments',
  {
    userId: text('user_id').notNull(),
    id: text('id').notNull(),
    messageId: text('message_id').notNull(),
    data: blob('data', { mode: 'buffer' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.id] }), index('gmail_attachments_by_message').on(t.userId, t.messageId)],
)

/** Mailbox change records behind history.list. */
export const history = sqliteTable(
  'gmail_history',
  {
    userId: text('user_id').notNull(),
    id: integer('id').notNull(),
    type: text('type', { enum: ['messageAdded', 'messageDeleted', 'labelAdded', 'labelRemoved'] }).notNull(),
    messageId: text('message_id').notNull(),
    threadId: text('thread_id').notNull(),
    /** Labels of the message after the change (JSON array). */
    messageLabelIds: text('message_label_ids').notNull(),
    /** Labels added or removed by this change (JSON array). */
    changedLabelIds: text('changed_label_ids').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.id, t.messageId, t.type] })],
)

export const drafts = sqliteTable(
  'gmail_drafts',
  { userId: text('user_id').notNull(), id: text('id').notNull(), messageId: text('message_id').notNull() },
  (t) => [primaryKey({ columns: [t.userId, t.id] })],
)

export const filters = sqliteTable(
  'gmail_filters',
  {
    userId: text('user_id').notNull(),
    id: text('id').notNull(),
    criteria: text('criteria').notNull(),
    action: text('action').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.id] })],
)

/** Per-user settings documents (vacation, imap, pop, language, autoForwarding, watch) as JSON. */
export const settings = sqliteTable(
  'gmail_settings',
  { userId: text('user_id').notNull(), key: text('key').notNull(), value: text('value').notNull() },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
)

/** Addresses-keyed settings collections: forwarding addresses, send-as aliases, delegates. */
export const addressSettings = sqliteTable(
  'gmail_address_settings',
  {
    userId: text('user_id').notNull(),
    kind: text('kind', { enum: ['forwarding', 'sendAs', 'delegate', 'smime'] }).notNull(),
    email: text('email').notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.email] })],
)

/** Resumable upload sessions: the metadata of the first request and the bytes received so far. */
export const uploads = sqliteTable('gmail_uploads', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  metadata: text('metadata').notNull(),
  received: blob('received', { mode: 'buffer' }).notNull(),
})

export const gmailTables = [
  mailboxes,
  messages,
  messageLabels,
  labels,
  attachments,
  history,
  drafts,
  filters,
  settings,
  addressSettings,
  uploads,
] as const

export type MessageRow = typeof messages.$inferSelect
export type LabelRow = typeof labels.$inferSelect
