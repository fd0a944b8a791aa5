import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

// Platform objects apps and users create through the API: canvases, lists, calls, views (modals,
// App Home, dialogs), link unfurls, streamed messages, assistant threads and remote files.

/** A canvas (a file of type `canvas`, id F…); `channelId` set for a channel canvas. */
export const slackCanvases = sqliteTable('slack_canvases', {
  id: text('id').primaryKey(),
  title: text('title').notNull(),
  owner: text('owner').notNull(),
  channelId: text('channel_id'),
  created: integer('created').notNull(),
  updated: integer('updated').notNull(),
})

/** One section (heading, paragraph, list item…) of a canvas, in `pos` order. */
export const slackCanvasSections = sqliteTable(
  'slack_canvas_sections',
  {
    canvasId: text('canvas_id').notNull(),
    id: text('id').notNull(),
    pos: integer('pos').notNull(),
    kind: text('kind').notNull(), // h1 | h2 | h3 | any
    markdown: text('markdown').notNull(),
  },
  (t) => [primaryKey({ columns: [t.canvasId, t.id] }), index('slack_canvas_sections_by_pos').on(t.canvasId, t.pos)],
)

/** Explicit access to a canvas or list (`objectId`) for a user (U…) or channel (C…): read | write | owner. */
export const slackAccess = sqliteTable(
  'slack_access',
  {
    objectId: text('object_id').notNull(),
    entityId: text('entity_id').notNull(),
    level: text('level').notNull(),
  },
  (t) => [primaryKey({ columns: [t.objectId, t.entityId] })],
)

/** A Slack List (id F…) with its column schema (JSON array of columns). */
export const slackLists = sqliteTable('slack_lists', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  columns: text('columns').notNull(),
  todoMode: integer('todo_mode').notNull().default(0),
  owner: text('owner').notNull(),
  created: integer('created').notNull(),
  updated: integer('updated').notNull(),
})

/** A list item (row); `fields` is a JSON object column id → stored cell. */
export const slackListItems = sqliteTable(
  'slack_list_items',
  {
    listId: text('list_id').notNull(),
    id: text('id').notNull(),
    parentId: text('parent_id'),
    fields: text('fields').notNull(),
    createdBy: text('created_by').notNull(),
    created: integer('created').notNull(),
    updatedBy: text('updated_by').notNull(),
    updated: integer('updated').notNull(),
  },
  (t) => [primaryKey({ columns: [t.listId, t.id] })],
)

/** A call registered by calls.add (id R…); `participants` JSON array of user objects. */
export const slackCalls = sqliteTable('slack_calls', {
  id: text('id').primaryKey(),
  externalUniqueId: text('external_unique_id').notNull(),
  externalDisplayId: text('external_display_id').notNull().default(''),
  joinUrl: text('join_url').notNull(),
  desktopJoinUrl: text('desktop_join_url').notNull().default(''),
  title: text('title').notNull().default(''),
  createdBy: text('created_by').notNull(),
  appUser: text('app_user').notNull(),
  dateStart: integer('date_start').notNull(),
  dateEnd: integer('date_end').notNull().default(0),
  participants: text('participants').notNull().default('[]'),
  allParticipants: text('all_participants').notNull().default('[]'),
})

/** A view (V…): modal (with its stack), App Home, or a legacy dialog. */
export const slackViews = sqliteTable('slack_views', {
  id: text('id').primaryKey(),
  type: text('type').notNull(), // modal | home | dialog
  appUser: text('app_user').notNull(),
  userId: text('user_id').notNull(),
  externalId: text('external_id').notNull().default(''),
  rootViewId: text('root_view_id').notNull(),
  previousViewId: text('previous_view_id'),
  hash: text('hash').notNull(),
  view: text('view').notNull(),
  triggerId: text('trigger_id').notNull().default(''),
  created: integer('created').notNull(),
  updated: integer('updated').notNull(),
})

/** An unfurl an app attached to a URL in a message (chat.unfurl). */
export const slackUnfurls = sqliteTable(
  'slack_unfurls',
  {
    channelId: text('channel_id').notNull(),
    ts: text('ts').notNull(),
    url: text('url').notNull(),
    attachment: text('attachment').notNull(),
    appUser: text('app_user').notNull(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.ts, t.url] })],
)

/** A message being streamed (chat.startStream … stopStream). */
export const slackStreams = sqliteTable(
  'slack_streams',
  {
    channelId: text('channel_id').notNull(),
    ts: text('ts').notNull(),
    userId: text('user_id').notNull(),
    state: text('state').notNull(), // streaming | stopped
  },
  (t) => [primaryKey({ columns: [t.channelId, t.ts] })],
)

/** Assistant thread presentation set by assistant.threads.* (status, title, suggested prompts). */
export const slackAssistantThreads = sqliteTable(
  'slack_assistant_threads',
  {
    channelId: text('channel_id').notNull(),
    threadTs: text('thread_ts').notNull(),
    status: text('status').notNull().default(''),
    title: text('title').notNull().default(''),
    prompts: text('prompts').notNull().default('[]'),
    promptsTitle: text('prompts_title').notNull().default(''),
    updatedBy: text('updated_by').notNull(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.threadTs] })],
)

/** A remote file (files.remote.add): metadata only, the bytes live at `externalUrl`. */
export const slackRemoteFiles = sqliteTable('slack_remote_files', {
  id: text('id').primaryKey(),
  externalId: text('external_id').notNull().unique(),
  appUser: text('app_user').notNull(),
  title: text('title').notNull(),
  filetype: text('filetype').notNull().default(''),
  externalUrl: text('external_url').notNull(),
  indexable: text('indexable').notNull().default(''),
  hasPreview: integer('has_preview').notNull().default(0),
  channels: text('channels').notNull().default('[]'),
  created: integer('created').notNull(),
  updated: integer('updated').notNull(),
})

/** An app created from a manifest (apps.manifest.*); installed (`botUser` set) by oauth.v2.access. */
export const slackApps = sqliteTable('slack_apps', {
  id: text('id').primaryKey(),
  manifest: text('manifest').notNull(),
  creator: text('creator').notNull(),
  botUser: text('bot_user'),
  created: integer('created').notNull(),
  updated: integer('updated').notNull(),
})

/** A list export (slackLists.download.start): the CSV is made when the job starts. */
export const slackListExports = sqliteTable('slack_list_exports', {
  jobId: text('job_id').primaryKey(),
  listId: text('list_id').notNull(),
  userId: text('user_id').notNull(),
  csv: text('csv').notNull(),
  created: integer('created').notNull(),
})

export const appTables = [
  slackCanvases,
  slackCanvasSections,
  slackAccess,
  slackLists,
  slackListItems,
  slackCalls,
  slackViews,
  slackUnfurls,
  slackStreams,
  slackAssistantThreads,
  slackRemoteFiles,
  slackApps,
  slackListExports,
]
