import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import type { BookRoomParams } from '../../oracles/families/calendar/book-room.ts'
import { calendarBookRoom } from '../../tasks-lite/families/calendar/calendar-book-room.ts'
import { nearMiss, oracleGym } from './support.ts'

const { judge } = oracleGym()
const task = (seed: number) => TaskSpec.parse(calendarBookRoom.generate(seed))
const failed = (v: { details: { checks: { name: string; ok: boolean }[] } }) =>
  v.details.checks.filter((c) => !c.ok).map((c) => c.name)

describe('calendar-book-room generator', () => {
  it('plants one fitting free room in the asked building and keeps the answer out of the instruction', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const t = task(seed)
      const p = t.oracle.params as BookRoomParams
      const rooms = (
        t.seed as { calendar: { rooms: { id: string; building: string; capacity: number; features: string[] }[] } }
      ).calendar.rooms
      const fits = rooms.filter(
        (r) => r.building === p.building && r.capacity >= p.capacity && r.features.includes(p.feature),
      )
      // Two rooms fit on paper; one of them is booked at that time (checked by the oracle runs below).
      expect(fits.map((r) => r.id).sort(), t.id).toContain(p.room)
      expect(fits, t.id).toHaveLength(2)
      const target = rooms.find((r) => r.id === p.room)!
      expect(t.instruction).not.toContain(target.id)
      expect(t.instruction.toLowerCase()).not.toContain(target.id.split('-').pop()!)
      for (const g of p.guests) expect(t.instruction).toContain(g)
    }
  })
})

describe('calendar-book-room oracle', () => {
  const t = task(2)

  it('passes the reference, which books the free room through the Directory and Calendar APIs', async () => {
    const v = await judge(t, t.reference)
    expect(failed(v)).toEqual([])
    expect(v.reward).toBe(1)
  })

  it('fails doing nothing', async () => {
    const v = await judge(t, [])
    expect(v.reward).toBe(0)
    expect(failed(v)).toContain('exactly one new event')
  })

  const p = t.oracle.params as BookRoomParams
  it.each([
    ['too small a room', `it seats ${p.capacity}`],
    ['the booked room (it declines)', 'the room accepted (it was free)'],
    ['a room without the feature', `it has ${p.feature}`],
    ['the right kind of room in the other building', `the room is in ${p.building}`],
    ['two rooms on the event', 'exactly one room'],
    ['a second event for the booked room', 'exactly one new event'],
    ['the room without the guests', 'inviting every guest'],
    ['every room', 'exactly one room'],
  ])('fails the near miss "%s" on "%s"', async (name, check) => {
    const v = await judge(t, nearMiss(t, name))
    expect(v.reward).toBeLessThan(1)
    expect(failed(v)).toContain(check)
  })
})
