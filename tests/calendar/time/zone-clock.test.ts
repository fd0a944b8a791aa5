import { DateTime, IANAZone } from 'luxon'
import { describe, expect, test } from 'vitest'
import { ZoneClock } from '../../../envs/calendar/time/zone-clock.ts'
import { wallClockToMs } from '../../../envs/calendar/time/zoned.ts'

const ZONES = [
  'America/New_York',
  'Europe/London',
  'Australia/Sydney',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'America/Santiago',
  'UTC',
]
const STEP = (3 * 60 + 7) * 60_000 // an odd step, so it lands at many different times of day

describe('ZoneClock', () => {
  test.each(ZONES)('%s agrees with luxon through 2026', (zone) => {
    const clock = new ZoneClock(zone)
    const bad: string[] = []
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += STEP) {
      const d = DateTime.fromMillis(ms, { zone })
      const float = Date.UTC(d.year, d.month - 1, d.day, d.hour, d.minute, d.second)
      if (clock.floatOf(ms) !== float) bad.push(`floatOf ${new Date(ms).toISOString()}`)
      const w = new Date(float)
      const exact = wallClockToMs(
        {
          year: w.getUTCFullYear(),
          month: w.getUTCMonth() + 1,
          day: w.getUTCDate(),
          hour: w.getUTCHours(),
          minute: w.getUTCMinutes(),
          second: w.getUTCSeconds(),
        },
        zone,
      )
      if (clock.instantOfFloat(float) !== exact) bad.push(`instantOfFloat ${w.toISOString()}`)
    }
    expect(bad).toEqual([])
  })

  // Zones with unusual histories: Ramadan suspensions, 30-minute and 2-hour shifts,
  // a skipped day, a zone that changed its standard offset.
  test.each([
    'America/New_York',
    'Africa/Casablanca',
    'Australia/Lord_Howe',
    'Antarctica/Troll',
    'Pacific/Apia',
    'Europe/Moscow',
    'America/Santiago',
  ])("%s gives luxon's offset on both sides of every change, 1995–2040", (zone) => {
    const clock = new ZoneClock(zone)
    const lux = IANAZone.create(zone)
    const bad: string[] = []
    let changes = 0
    const STEP = 6 * 3_600_000
    let prev = lux.offset(Date.UTC(1995, 0, 1))
    for (let t = Date.UTC(1995, 0, 1); t < Date.UTC(2040, 0, 1); t += STEP) {
      const now = lux.offset(t)
      if (now === prev) continue
      changes++
      // The exact instant of the change (within the step before t), then points on both sides of it.
      let lo = t - STEP
      let hi = t
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2)
        if (lux.offset(mid) === prev) lo = mid
        else hi = mid
      }
      prev = now
      for (const d of [-86_400_000, -3_600_000, -61_000, -1000, -1, 0, 1, 999, 59_000, 3_599_999, 86_400_000]) {
        if (clock.offset(hi + d) !== lux.offset(hi + d)) bad.push(new Date(hi + d).toISOString())
      }
    }
    expect(bad.slice(0, 5)).toEqual([])
    expect(changes).toBeGreaterThan(0)
  })

  test('ZoneClock.of shares one clock per zone', () => {
    expect(ZoneClock.of('Europe/Paris')).toBe(ZoneClock.of('Europe/Paris'))
    expect(ZoneClock.of('Europe/Paris')).not.toBe(ZoneClock.of('Europe/Berlin'))
  })
})
