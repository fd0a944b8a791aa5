import { afterAll, describe, expect, it } from 'vitest'
import { createGym } from '../../gym/index.ts'
import { loadCorpus } from '../../gym/corpus.ts'
import { TaskSpec } from '../../gym/task.ts'
import { validateTask } from '../../gym/validate.ts'
import { Provenance } from '../../gym/provenance.ts'
import { pick, fill } from '../../gym/program-grammar.ts'
import { worldState } from '../../server/state.ts'
import { families } from '../../tasks-lite/families/index.ts'

const gym = createGym({ tasks: [] })
afterAll(() => gym.worlds.close())

/** Ids that spell a role (how generators used to name the answer: fileMine…, fldNear…, fileSecret, fileInvA…). */
const ROLE =
  /(?:^|[^A-Za-z])(?:file|fld)[A-Z]|Mine|Near|Secret|Leaky|Public|Decoy|Inv[A-C](?![a-z])|Inside|Misc|Wrong|Right/

describe('generated worlds use opaque ids', () => {
  it('no id in any committed task world carries a role word', () => {
    const bad: string[] = []
    // Seeds 1-4 of every family (every volume):
    // a longer scan only finds role words random ids spell by chance (`…InvC`).
    for (const t of loadCorpus().filter((x) => Number(x.id.split('-').at(-1)) <= 4)) {
      const ep = gym.reset(t)
      const state = worldState(ep.entry.world)
      for (const [svc, s] of Object.entries(state.services)) {
        for (const [coll, items] of Object.entries(s.entities))
          for (const key of Object.keys(items)) if (ROLE.test(key)) bad.push(`${t.id}: ${svc}.${coll} ${key}`)
      }
      ep.close()
    }
    expect(bad).toEqual([])
  }, 300_000)

  it('no generator chooses Drive ids itself', () => {
    for (const f of families)
      expect(JSON.stringify((f.generate(1).seed as { drive?: unknown }).drive ?? {}), f.id).not.toMatch(/"id":/)
  })

  it('the scan catches the old role-named ids', () => {
    for (const id of [
      'fileMine00010xxxxx',
      'fldNear00010xxxxxx',
      'fileSecret0001xxxx',
      'fileInvA0001xxxxxx',
      'fldPublic0001xxxxx',
      'fileLeaky0001xxxxx',
    ])
      expect(ROLE.test(id), id).toBe(true)
  })
})

describe('references look before they act', () => {
  it('flags literals the agent has not seen and accepts them once observed', () => {
    const p = new Provenance(['Reply to Ann Lee about order 4411.', 'me@co.test'])
    const step = {
      method: 'POST',
      path: '/gmail/v1/users/me/messages/send',
      body: { to: 'ann@cust.test', text: 'PO-99120 for order 4411' },
    }
    expect(p.unexplained(step).map((u) => `${u.kind}:${u.value}`)).toEqual(['email:ann@cust.test', 'token:PO-99120'])
    p.observe('{"from":"Ann Lee <ann@cust.test>"}', {
      payload: { body: { data: Buffer.from('the PO is PO-99120').toString('base64url') } },
    })
    expect(p.unexplained(step)).toEqual([])
  })

  it('needs a date and time to have been read (in any common form), and a zone by its city', () => {
    const p = new Provenance(['Book it.'])
    const ev = {
      body: {
        start: { dateTime: '2026-03-12T14:30:00+01:00', timeZone: 'Europe/Berlin' },
        end: { dateTime: '2026-03-12T15:15:00+01:00', timeZone: 'Europe/Berlin' },
      },
    }
    expect(
      p
        .unexplained(ev)
        .map((u) => u.kind)
        .sort(),
    ).toEqual(['date', 'date', 'time', 'time', 'zone', 'zone'])
    p.observe("Let's do Thursday 12 March at 14:30, my time (Berlin).")
    expect(p.unexplained(ev)).toEqual([])
    expect(p.unexplained({ startTime: String(Date.parse('2026-04-20T00:00:00Z')) }).map((u) => u.kind)).toEqual([
      'date',
    ])
  })

  it("reads an RRULE's UNTIL as a date that must have been mentioned", () => {
    const p = new Provenance(['The last sync is on Monday 20 April.'])
    expect(p.unexplained({ recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20260420T173000Z'] })).toEqual([])
    const unseen = p.unexplained({ recurrence: ['RRULE:FREQ=WEEKLY;UNTIL=20260511T173000Z'] })
    expect(unseen.map((u) => `${u.kind}:${u.value}`)).toEqual(['date:UNTIL=20260511T173000Z'])
  })

  it('reads an epoch time inside a longer string (a JWT claims set) as a date that must have been mentioned', () => {
    const claims = JSON.stringify({ iss: 'a', iat: 1772442000, exp: 1772445600 })
    expect(new Provenance(['Do it.']).unexplained({ payload: claims }).map((u) => u.kind)).toEqual(['date', 'date'])
    expect(new Provenance(['Current time: 2026-03-02T09:00:00.000Z.']).unexplained({ payload: claims })).toEqual([])
  })

  it('tasks:validate reports a reference that acts without looking', async () => {
    const t = TaskSpec.parse(families.find((f) => f.id === 'gmail-vacation')!.generate(1))
    const blind = { ...t, reference: t.reference.slice(-1) }
    const r = await validateTask(gym, blind, { attacks: false })
    expect(r.ok).toBe(false)
    expect(r.problems.some((p) => /reference step 0 uses date/.test(p))).toBe(true)
  })
})

describe('program grammar', () => {
  it('extracts an address or a domain from a header value, and indexes bound arrays', () => {
    const body = { payload: { headers: [{ name: 'From', value: '"Ann Lee" <ann@cust.test>' }] } }
    expect(pick(body, 'payload.headers[name=from].value|email')).toBe('ann@cust.test')
    expect(pick(body, 'payload.headers[name=from].value|domain')).toBe('cust.test')
    expect(fill('/x/{{ids.1}}', { ids: ['a', 'b'] })).toBe('/x/b')
  })
})
