import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { sql } from 'drizzle-orm'

// Storage shape of Calendar. Every write to an event, rule or list entry takes the next value of the
// `calendar.change` counter into `changeSeq`; sync tokens are positions in that sequence.

/** Calendars: one primary per user (id = the user's email) and secondary ones (`<hex>@group.calendar.google.com`). */
export const calendars = sqliteTable('calendar_calendars', {
  id: text('id').primaryKey(),
  ownerId: text('owner_id').notNull(),
  summary: text('summary').notNull(),
  description: text('description'),
  location: text('location'),
  timeZone: text('time_zone').notNull(),
  isPrimary: integer('is_primary', { mode: 'boolean' }).notNull().default(false),
  updatedMs: integer('updated_ms').notNull(),
})

/** ACL rules; the owner's rule is stored too (`user:<email>`, role owner). */
export const aclRules = sqliteTable(
  'calendar_acl',
  {
    calendarId: text('calendar_id').notNull(),
    id: text('id').notNull(),
    scopeType: text('scope_type', { enum: ['default', 'user', 'group', 'domain'] }).notNull(),
    scopeValue: text('scope_value'),
    role: text('role', { enum: ['none', 'freeBusyReader', 'reader', 'writer', 'owner'] }).notNull(),
    deleted: integer('deleted', { mode: 'boolean' }).notNull().default(false),
    changeSeq: integer('change_seq').notNull(),
  },
  (t) => [primaryKey({ columns: [t.calendarId, t.id] })],
)

/** A user's calendar list (subscriptions) with their per-user display settings. */
export const calendarList = sqliteTable(
  'calendar_list',
  {
    userId: text('user_id').notNull(),
    calendarId: text('calendar_id').notNull(),
    colorId: text('color_id').notNull(),
    backgroundColor: text('background_color').notNull(),
    foregroundColor: text('foreground_color').notNull(),
    hidden: integer('hidden', { mode: 'boolean' }).notNull().default(false),
    selected: integer('selected', { mode: 'boolean' }).notNull().default(true),
    summaryOverride: text('summary_override'),
    /** JSON array of {method, minutes}. */
    defaultReminders: text('default_reminders').notNull().default('[]'),
    /** JSON array of {method, type}. */
    notifications: text('notifications').notNull().default('[]'),
    deleted: integer('deleted', { mode: 'boolean' }).notNull().default(false),
    changeSeq: integer('change_seq').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.calendarId] })],
)

/**
 * Events. A recurring series is one row with `recurrence`; a modified or cancelled instance is its own row
 * (id `<base>_<originalStart>`, `recurringEventId` set). An attendee who is a world user holds a copy of the
 * organizer's row on their primary calendar (`organizerCalendarId` names the original).
 */
export const events = sqliteTable(
  'calendar_events',
  {
    calendarId: text('calendar_id').notNull(),
    id: text('id').notNull(),
    organizerCalendarId: text('organizer_calendar_id').notNull(),
    /** JSON of the client-settable fields kept as given (summary, attendees, reminders, …). */
    data: text('data').notNull(),
    /** JSON StoredTime {ms, allDay, date?, timeZone, given}. */
    start: text('start').notNull(),
    end: text('end').notNull(),
    startMs: integer('start_ms').notNull(),
    endMs: integer('end_ms').notNull(),
    recurrence: text('recurrence'),
    recurringEventId: text('recurring_event_id'),
    originalStart: text('original_start'),
    status: text('status', { enum: ['confirmed', 'tentative', 'cancelled'] }).notNull(),
    sequence: integer('sequence').notNull().default(0),
    iCalUID: text('ical_uid').notNull(),
    creatorEmail: text('creator_email').notNull(),
    organizerEmail: text('organizer_email').notNull(),
    organizerName: text('organizer_name'),
    createdMs: integer('created_ms').notNull(),
    updatedMs: integer('updated_ms').notNull(),
    changeSeq: integer('change_seq').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.calendarId, t.id] }),
    index('calendar_events_by_change').on(t.calendarId, t.changeSeq),
    index('calendar_events_by_org').on(t.organizerCalendarId, t.id),
    // Window listings (store/window.ts): one-off rows overlapping a window, series, exceptions, latest update.
    index('calendar_events_by_end').on(t.calendarId, t.endMs, t.startMs),
    // The calendar's longest event bounds a window's end_ms range from above (decision 0294).
    index('calendar_events_by_length').on(t.calendarId, sql`(${t.endMs} - ${t.startMs})`),
    // Series and exceptions only (decision 0411): a one-off event, most of a calendar, writes no entry in either.
    index('calendar_events_by_series')
      .on(t.calendarId, t.recurrence)
      .where(sql`${t.recurrence} IS NOT NULL`),
    index('calendar_events_by_parent')
      .on(t.calendarId, t.recurringEventId)
      .where(sql`${t.recurringEventId} IS NOT NULL`),
    index('calendar_events_by_updated').on(t.calendarId, t.updatedMs),
  ],
)

/** Push channels from events/acl/calendarList/settings.watch; channels.stop removes them. */
export const channels = sqliteTable(
  'calendar_channels',
  {
    id: text('id').notNull(),
    resourceId: text('resource_id').notNull(),
    resourceUri: text('resource_uri').notNull(),
    userId: text('user_id').notNull(),
    type: text('type').notNull(),
    address: text('address').notNull(),
    token: text('token'),
    expirationMs: integer('expiration_ms').notNull(),
  },
  (t) => [primaryKey({ columns: [t.id, t.resourceId] })],
)

export const calendarTables = [calendars, aclRules, calendarList, events, channels] as const
export type CalendarRow = typeof calendars.$inferSelect
export type AclRow = typeof aclRules.$inferSelect
export type ListRow = typeof calendarList.$inferSelect
export type EventRow = typeof events.$inferSelect
