import { describe, expect, it } from 'vitest'
import { passTime, slackWorld } from './helpers.ts'
import { reminderTime } from '../../envs/slack/reminder-time.ts'
import { startSdkServer } from '../sdk/server.ts'

// The demo world starts at 2026-03-02T14:00:00Z, a Monday: 06:00 for dan (America/Los_Angeles, PST until the DST
// change of Sunday 8 March), 15:00 for carol (Europe/Stockholm). Expected instants are written out in seconds.
const add = async (w: ReturnType<typeof slackWorld>, time: unknown, user = 'dan', extra = {}) =>
  w.api('reminders.add', { text: 'file the report', time, ...extra }, user)

/** A reminder's stored next time (a recurring reminder's wire object has none). */
const timeOf = (w: ReturnType<typeof slackWorld>, id: string) =>
  w.h.entry.world.db.$client.prepare('SELECT time FROM slack_reminders WHERE id = ?').pluck().get(id) as number

describe('reminders.add natural-language times', () => {
  it("reads dates and times in the caller's time zone, rolling a past time of day or weekday forward", async () => {
    const w = slackWorld()
    const at = async (time: string, user = 'dan') => (await add(w, time, user)).reminder?.time
    expect(await at('tomorrow')).toBe(1772557200) // 2026-03-03 09:00 PST: a date alone is 9 AM
    expect(await at('tomorrow at 9am', 'carol')).toBe(1772524800) // 09:00 in Stockholm
    expect(await at('at 3pm')).toBe(1772492400) // later today
    expect(await at('5am')).toBe(1772542800) // already past today: tomorrow
    expect(await at('on Friday at 10:30')).toBe(1772821800)
    expect(await at('next Monday')).toBe(1773072000) // 09:00 PDT, after the change to summer time
    expect(await at('Dec 5')).toBe(1796490000)
    const inTwo = (await add(w, 'in 2 hours')).reminder.time
    const inTwoMinutes = (await add(w, 'in 2 minutes')).reminder.time
    // Relative times count from each request's clock (the second request came a tick later).
    expect(inTwo - inTwoMinutes).toBeLessThanOrEqual(7080)
    expect(inTwo - inTwoMinutes).toBeGreaterThan(7020)
    for (const bad of ['whenever', 'tomorrow or maybe friday', 'every blue moon', 'every month on the 45th']) {
      expect((await add(w, bad)).error, bad).toBe('cannot_parse')
    }
    expect((await add(w, 'yesterday at noon')).error).toBe('time_in_past')
  })

  it('answers the same on hosts in any time zone (the host zone is never read)', () => {
    const phrases = ['March 8 at 3am', 'at 12:15am', 'on Friday at 10:30', 'Dec 5', 'every weekday at 8:30am']
    const now = Date.UTC(2026, 2, 8, 8, 30) / 1000 // 00:30 PST on the day of the DST change
    const read = () => phrases.map((p) => reminderTime(p, undefined, now, 'America/Los_Angeles'))
    const saved = process.env.TZ
    try {
      process.env.TZ = 'UTC'
      const utc = read()
      for (const tz of ['Asia/Tokyo', 'America/Los_Angeles', 'Pacific/Chatham']) {
        process.env.TZ = tz
        expect(read(), tz).toEqual(utc)
      }
      expect(utc[0]!.time).toBe(Date.UTC(2026, 2, 8, 10) / 1000) // 03:00 PDT that same morning
    } finally {
      process.env.TZ = saved
    }
  })
})

describe('recurring reminders', () => {
  it('"every weekday at 8:30am": a rule instead of a time, fired each occurrence, never completed', async () => {
    const w = slackWorld()
    const r = (await add(w, 'every weekday at 8:30am')).reminder
    expect(r).toEqual({
      id: r.id,
      creator: await w.uid('dan'),
      user: await w.uid('dan'),
      text: 'file the report',
      recurring: true,
      recurrence: { frequency: 'weekly', weekdays: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] },
    })
    expect(timeOf(w, r.id)).toBe(1772469000) // today (Monday) 08:30 PST, still ahead
    passTime(w, 27 * 3600_000) // to Tuesday 17:00 UTC: Monday's and Tuesday's occurrences passed, one reminder
    const ims = await w.api('conversations.list', { types: 'im' }, 'dan')
    const slackbot = ims.channels.find((c: { user: string }) => c.user === 'USLACKBOT')
    const history = await w.api('conversations.history', { channel: slackbot.id }, 'dan')
    expect(history.messages.filter((m: { text: string }) => m.text === 'Reminder: file the report.')).toHaveLength(1)
    expect(timeOf(w, r.id)).toBe(1772641800) // Wednesday 08:30 PST: the next occurrence
    passTime(w, 4 * 24 * 3600_000) // to Saturday: Wednesday, Thursday and Friday passed
    expect(timeOf(w, r.id)).toBe(1773070200) // Monday 9 March 08:30, now PDT (15:30 UTC)
    expect((await w.api('reminders.complete', { reminder: r.id }, 'dan')).error).toBe('cannot_complete_recurring')
    expect((await w.api('reminders.list', {}, 'dan')).reminders.map((x: { id: string }) => x.id)).toContain(r.id)
    expect((await w.api('reminders.delete', { reminder: r.id }, 'dan')).ok).toBe(true)
  })

  it('monthly on the 31st keeps its day, on the last day of shorter months', async () => {
    const w = slackWorld()
    const r = (await add(w, 'every month on the 31st')).reminder
    expect(r.recurrence).toEqual({ frequency: 'monthly' })
    const time = () => timeOf(w, r.id)
    expect(time()).toBe(1774972800) // 31 March 09:00 PDT
    passTime(w, 30 * 24 * 3600_000)
    expect(time()).toBe(1777564800) // 30 April
    passTime(w, 31 * 24 * 3600_000)
    expect(time()).toBe(1780243200) // 31 May, not the 30th
  })

  it('takes the recurrence argument through @slack/web-api, with the time of day from `time`', async () => {
    const server = await startSdkServer()
    try {
      const client = server.slack('dan')
      const res = await client.reminders.add({
        text: 'standup notes',
        time: '9am',
        recurrence: { frequency: 'weekly', weekdays: ['wednesday', 'monday'] },
      })
      expect(res.reminder).toMatchObject({
        recurring: true,
        recurrence: { frequency: 'weekly', weekdays: ['monday', 'wednesday'] },
      })
      const listed = await client.reminders.list()
      expect(listed.reminders?.find((x) => x.id === res.reminder!.id)?.recurring).toBe(true)
      await expect(
        client.reminders.add({ text: 'x', time: '9am', recurrence: { frequency: 'hourly' } as never }),
      ).rejects.toMatchObject({ data: { error: 'invalid_arguments' } })
    } finally {
      await server.close()
    }
  })
})

describe('reminders.add for another user', () => {
  it('is refused with cannot_add_others through @slack/web-api; the caller may still name itself', async () => {
    const server = await startSdkServer()
    try {
      const dan = server.slack('dan')
      const bob = (await server.slack('bob').auth.test()).user_id!
      const self = (await dan.auth.test()).user_id!
      await expect(dan.reminders.add({ text: 'call Globex', time: 'in 2 hours', user: bob })).rejects.toMatchObject({
        data: { ok: false, error: 'cannot_add_others' },
      })
      await expect(dan.reminders.add({ text: 'x', time: 'in 2 hours', user: 'U0NOSUCH' })).rejects.toMatchObject({
        data: { error: 'user_not_found' },
      })
      const own = await dan.reminders.add({ text: 'call Globex', time: 'in 2 hours', user: self })
      expect(own.reminder).toMatchObject({ creator: self, user: self, text: 'call Globex' })
      // Nothing was stored for Bob, and Dan's list holds only his own.
      expect((await server.slack('bob').reminders.list()).reminders).toEqual([])
      expect((await dan.reminders.list()).reminders?.map((r) => r.id)).toEqual([own.reminder!.id])
    } finally {
      await server.close()
    }
  })
})
