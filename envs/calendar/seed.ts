import { z } from 'zod'
import type { World } from '../core/world.ts'
import type { SeedContext } from '../core/service.ts'
import { SeedTimeZone } from '../core/seed-types.ts'
import { calendarEventId } from '../core/ids.ts'
import type { CalendarRow } from './schema.ts'
import { createCalendar, ensurePrimaries, findCalendar, putRule, subscribe } from './store/access.ts'
import { createEvent } from './store/writes.ts'
import { setResponse } from './store/writes.ts'
import { findEvent } from './store/events.ts'
import type { EventBody } from './store/build.ts'
import { roomEmail, RoomSeed, seedRooms } from './seed-rooms.ts'

const SeedTime = z
  .object({ dateTime: z.string().optional(), date: z.string().optional(), timeZone: SeedTimeZone.optional() })
  .strict()

const SeedCalendar = z
  .object({
    /** Name other seed entries use in `calendar`. */
    key: z.string(),
    owner: z.string(),
    summary: z.string().min(1),
    description: z.string().optional(),
    timeZone: SeedTimeZone.optional(),
    colorId: z.string().optional(),
    acl: z
      .array(
        z.object({
          type: z.enum(['default', 'user', 'group', 'domain']),
          value: z.string().optional(),
          role: z.enum(['freeBusyReader', 'reader', 'writer', 'owner']),
        }),
      )
      .default([]),
  })
  .strict()

const SeedEvent = z
  .object({
    /** A calendar key, or a user (id or email) for their primary calendar. */
    calendar: z.string(),
    id: z
      .string()
      .regex(/^[a-v0-9]{5,1024}$/)
      .optional(),
    summary: z.string(),
    description: z.string().optional(),
    location: z.string().optional(),
    start: SeedTime,
    end: SeedTime,
    recurrence: z.array(z.string()).optional(),
    /** Users (id or email) or outside addresses, with their answer. */
    attendees: z
      .array(
        z.object({
          user: z.string(),
          responseStatus: z.enum(['needsAction', 'accepted', 'declined', 'tentative']).default('needsAction'),
          optional: z.boolean().optional(),
        }),
      )
      .default([]),
    conference: z.boolean().default(false),
    colorId: z.string().optional(),
    transparency: z.enum(['opaque', 'transparent']).optional(),
    visibility: z.enum(['default', 'public', 'private', 'confidential']).optional(),
    /** Rooms (resourceIds of `rooms`) booked for the event: each answers as it would (accepts when free). */
    rooms: z.array(z.string()).default([]),
  })
  .strict()

export const CalendarSeed = z
  .object({
    calendars: z.array(SeedCalendar).default([]),
    events: z.array(SeedEvent).default([]),
    ...RoomSeed.shape,
  })
  .strict()
  .default({ calendars: [], events: [], buildings: [], features: [], rooms: [] })
export type CalendarSeed = z.output<typeof CalendarSeed>

/** Every user's primary calendar, then secondary calendars with their sharing, then events in order. */
export function seedCalendar(world: World, seed: CalendarSeed, ctx: SeedContext): void {
  const db = world.db
  ensurePrimaries(db)
  seedRooms(db, seed)
  const byKey = new Map<string, CalendarRow>()
  seed.calendars.forEach((c, i) => {
    const owner = ctx.user(c.owner, `calendar.calendars[${i}].owner`)
    const cal = createCalendar(db, owner, {
      summary: c.summary,
      description: c.description,
      timeZone: c.timeZone ?? owner.timeZone,
      colorId: c.colorId,
    })
    for (const r of c.acl) {
      const value =
        r.type === 'default'
          ? null
          : r.type === 'domain'
            ? (r.value ?? ctx.domain)
            : r.value
              ? (tryUser(ctx, r.value)?.email ?? r.value).toLowerCase()
              : null
      if (r.type !== 'default' && !value)
        throw new Error(`calendar.calendars[${i}].acl: value is required for ${r.type} rules`)
      putRule(db, cal.id, r.type, value, r.role)
      const user = r.type === 'user' && value ? tryUser(ctx, value) : undefined
      if (user) subscribe(db, user.id, cal.id)
    }
    byKey.set(c.key, cal)
  })
  seed.events.forEach((e, i) => {
    const path = `calendar.events[${i}]`
    const cal = byKey.get(e.calendar) ?? findCalendar(db, ctx.user(e.calendar, `${path}.calendar`).email)!
    const owner = ctx.user(cal.ownerId, `${path}.calendar`)
    const people = e.attendees.map((a, j) => ({
      email: tryUser(ctx, a.user)?.email ?? checkEmail(a.user, `${path}.attendees[${j}]`),
      ...(a.optional ? { optional: true } : {}),
    }))
    const attendees = [...people, ...e.rooms.map((id, j) => ({ email: roomEmail(db, id, `${path}.rooms[${j}]`) }))]
    const body: EventBody = {
      summary: e.summary,
      description: e.description,
      location: e.location,
      start: e.start,
      end: e.end,
      recurrence: e.recurrence,
      colorId: e.colorId,
      transparency: e.transparency,
      visibility: e.visibility,
      ...(attendees.length ? { attendees } : {}),
      ...(e.conference
        ? {
            conferenceData: {
              createRequest: { requestId: `seed-${i}`, conferenceSolutionKey: { type: 'hangoutsMeet' } },
            },
          }
        : {}),
    }
    let row
    try {
      const o = { sendUpdates: 'none' as const, conferenceDataVersion: 1, minted: e.id === undefined }
      row = createEvent(db, cal, owner, e.id ?? calendarEventId(db), body, o)
    } catch (err) {
      throw new Error(`${path}: ${(err as Error).message}`)
    }
    e.attendees.forEach((a, j) => {
      if (a.responseStatus === 'needsAction') return
      const email = people[j]!.email.toLowerCase()
      const copy = findEvent(db, email, row.id) ?? findEvent(db, cal.id, row.id)!
      setResponse(db, copy, email, a.responseStatus, { sendUpdates: 'none', conferenceDataVersion: 0 })
    })
  })
}

function tryUser(ctx: SeedContext, ref: string) {
  return ctx.users.find((u) => u.id === ref || u.email.toLowerCase() === ref.toLowerCase())
}

function checkEmail(v: string, path: string): string {
  if (!/^[^@\s]+@[^@\s]+$/.test(v)) throw new Error(`${path}: "${v}" is neither a world user nor an email address`)
  return v
}
