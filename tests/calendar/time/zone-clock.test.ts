import { DateTime } from 'luxon'
import { describe, expect, test } from 'vitest'
import { ZoneClock } from '../../../envs/calendar/time/zone-clock.ts'
import { wallClockToMs } from '../../../envs/calendar/time/zoned.ts'

const ZONES = ['America/New_York', 'Europe/London', 'Australia/Sydney', 'Asia/Kolkata', 'Australia/Lord_Howe', 'America/Santiago', 'UTC']
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
        { year: w.getUTCFullYear(), month: w.getUTCMonth() + 1, day: w.getUTCDate(), hour: w.getUTCHours(), minute: w.getUTCMinutes(), second: w.getUTCSeconds() },
        zone,
      )
      if (clock.instantOfFloat(float) !== exact) bad.push(`instantOfFloat ${w.toISOString()}`)
    }
    expect(bad).toEqual([])
  })

  test('ZoneClock.of shares one clock per zone', () => {
    expect(ZoneClock.of('Europe/Paris')).toBe(ZoneClock.of('Europe/Paris'))
    expect(ZoneClock.of('Europe/Paris')).not.toBe(ZoneClock.of('Europe/Berlin'))
  })
})
