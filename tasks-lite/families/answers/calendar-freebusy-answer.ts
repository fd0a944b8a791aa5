import { DateTime } from 'luxon'
import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { persona, phrasing } from '../../world/phrasing.ts'
import { httpStep } from '../../../gym/program.ts'
import { doneStep } from './kit.ts'

const SLOTS = 16 // 09:00 to 16:30, every half hour

/**
 * Calendar answer task: the first half-hour slot of a day when the actor and two colleagues are all free. The first
 * truly free slot is covered by an event one colleague declined (or marked as free), so reading events naively gives a
 * later slot; an earlier slot is free for everyone but one of them. Free/busy answers it exactly.
 */
export const calendarFreebusyAnswer: Family = {
  id: 'calendar-freebusy-answer',
  services: ['calendar'],
  multiApp: false,
  antiGaming:
    'Judged by the final-answer oracle: the answer must state the first common free half-hour (local to the actor, with the right day if it gives one) and not the slot that ignores one colleague\'s meetings nor the one that counts a declined or "free" event as busy; creating or changing events is collateral.',
  scenario:
    "Three calendars (the actor's and two colleagues'), half-hour meetings from 09:00; the first slot free for all three is covered by a meeting one colleague declined or one marked as free (transparent); an earlier slot is blocked only for one colleague. The reference reads the actor's zone and asks freeBusy for the three calendars over the day.",
  generate(seed) {
    const r = rng(seed * 3541 + 19)
    const c = company(r, 3)
    const zone = c.users[0]!.timeZone
    const [a, b] = c.colleagues
    const day = DateTime.fromISO('2026-03-02', { zone }).plus({ days: r.pick([1, 2, 3, 8, 9, 10]) })
    const slot = (i: number) => day.set({ hour: 9, minute: 0 }).plus({ minutes: 30 * i })
    const t = r.int(3, 8)
    const onlyB = r.int(0, t - 1)
    const people = [c.actor.id, a!.id, b!.id, c.colleagues[2]!.id]
    // busy[i] = who is busy in slot i (0: actor, 1: a, 2: b)
    const busy: number[][] = Array.from({ length: SLOTS }, () => [])
    for (let i = 0; i < t; i++) busy[i] = i === onlyB ? [2] : [r.int(0, 1), ...(r.next() < 0.3 ? [2] : [])]
    const trick = r.next() < 0.5 ? 'declined' : 'transparent'
    const tricked = trick === 'declined' ? 2 : 1
    // After t: one slot free for all but the tricked colleague's real meetings, then random.
    for (let i = t + 1; i < SLOTS; i++) busy[i] = r.next() < 0.6 ? [r.int(0, 2)] : []
    const events: Record<string, unknown>[] = []
    let n = 0
    const add = (
      who: number,
      i: number,
      extra: Record<string, unknown> = {},
      attendees: { user: string; responseStatus?: 'declined' | 'accepted' }[] = [],
    ) =>
      events.push({
        calendar: people[who],
        id: `fb${seed}s${i}p${who}n${n++}`,
        summary: r.pick(['Review', 'Sync', 'Interview', 'Planning', 'Focus block']),
        start: { dateTime: slot(i).toUTC().toISO({ suppressMilliseconds: true }) },
        end: {
          dateTime: slot(i + 1)
            .toUTC()
            .toISO({ suppressMilliseconds: true }),
        },
        ...(attendees.length ? { attendees } : {}),
        ...extra,
      })
    busy.forEach((who, i) => who.forEach((w) => add(w, i)))
    // The trap in slot t: a third colleague's meeting that the colleague declined, or the colleague's own "free" block.
    if (tricked === 2) add(3, t, {}, [{ user: b!.id, responseStatus: 'declined' }])
    else add(1, t, { transparency: 'transparent', summary: 'Optional: brown-bag talk' })
    const free = slot(t)
    const naive = busy.findIndex((w, i) => i > t && w.length === 0)
    const wrongAt = [slot(onlyB), ...(naive > 0 ? [slot(naive)] : [])]
    const q = (s: DateTime) => s.toISO({ suppressMilliseconds: true })!
    const look = [
      httpStep('GET', '/calendar/v3/calendars/primary', {}, { zone: 'timeZone' }),
      httpStep('POST', '/calendar/v3/freeBusy', {
        body: {
          timeMin: q(slot(0)),
          timeMax: q(slot(SLOTS)),
          timeZone: '{{zone}}',
          items: [{ id: 'primary' }, { id: a!.email }, { id: b!.email }],
        },
      }),
    ]
    const say = (s: DateTime) => s.setLocale('en-GB').toFormat("cccc d LLLL 'at' HH:mm")
    const dayText = day.setLocale('en-GB').toFormat('cccc d LLLL')
    const id = `calendar-freebusy-answer-${seed}`
    const seedDoc = { ...baseSeed(c, id), calendar: { events } }
    // No background volume: the world generator's meetings on these calendars would move the answer, which is fixed
    // when the task is generated. The haystack here is the three calendars' own day.
    const volume = 'none' as const
    return {
      generatedBy: GENERATED_BY,
      id,
      family: 'calendar-freebusy-answer',
      services: ['calendar'],
      instruction: persona(
        rng(seed * 3541 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 3541 + 101), [
          () =>
            `When is the first half-hour slot on ${dayText}, between 09:00 and 17:00 my time, when ${a!.first} (${a!.email}), ${b!.first} (${b!.email}) and I are all free? Slots start on the hour or half past.`,
          () =>
            `I want to meet ${b!.first} <${b!.email}> and ${a!.first} <${a!.email}> for 30 minutes on ${dayText}. What's the earliest time from 09:00 to 17:00 (my time zone, on the hour or half hour) that works for all three of us?`,
          () =>
            `Find the earliest 30-minute window on ${dayText} (09:00-17:00 my time, starting at :00 or :30) where my calendar and those of ${a!.email} and ${b!.email} are all free. Just tell me the time.`,
        ]),
      ),
      world: { volume },
      actor: c.actor.id,
      seed: seedDoc,
      oracle: {
        id: 'final-answer',
        params: {
          actor: c.actor.id,
          expected: { kind: 'instant', iso: free.toUTC().toISO()!, zone },
          wrong: wrongAt.map((s) => ({ kind: 'instant' as const, iso: s.toUTC().toISO()!, zone })),
        },
      },
      reference: [...look, doneStep(`The first slot that works for all three of you is ${say(free)}.`)],
      nearMisses: [
        { name: `ignores ${b!.first}'s meetings`, program: [...look, doneStep(say(slot(onlyB)))] },
        {
          name: naive > 0 ? `counts the ${trick} meeting as busy` : 'one slot later',
          program: [...look, doneStep(say(naive > 0 ? slot(naive) : slot(t + 1)))],
        },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['calendar', 'answer', 'freebusy', 'time-zones'],
    }
  },
}
