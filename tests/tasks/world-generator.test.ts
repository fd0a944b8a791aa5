import { afterAll, describe, expect, it } from 'vitest'
import { createGym } from '../../gym/index.ts'
import { TaskSpec, type TaskInput } from '../../gym/task.ts'
import { worldState } from '../../server/state.ts'
import { families } from '../../tasks-lite/families/index.ts'
import { baseSeed, company, rng, GENERATED_BY } from '../../tasks-lite/families/common.ts'
import {
  expandWorld,
  needles,
  phrasing,
  RESERVED,
  taskWorldSeed,
  volumeFor,
  type Volume,
} from '../../tasks-lite/world/index.ts'

const gym = createGym({ tasks: [] })
/** The families this generator was first applied to (tasks-lite/families/*.ts). */
const ORIGINAL = [
  'gmail-reply-po',
  'gmail-label-sender',
  'gmail-vacation',
  'drive-lockdown-folder',
  'drive-organize',
  'docs-handbook-update',
  'slack-thread-answer',
  'calendar-reschedule-instance',
  'gmail-drive-invoice',
  'gmail-docs-correction',
  'gmail-drive-share-request',
  'gmail-slack-incident',
  'docs-slack-action-items',
  'gmail-calendar-meeting',
]
afterAll(() => gym.worlds.close())

/** A small task in every app: three users, one planted mail, file, event and channel message. */
function task(volume: Volume, id = 'world-probe-1'): TaskSpec {
  const c = company(rng(42))
  const cust = c.customers[0]!
  const input: TaskInput = {
    generatedBy: GENERATED_BY,
    id,
    family: 'world-probe',
    services: ['gmail', 'calendar', 'drive', 'docs', 'slack'],
    instruction: 'Look around.',
    actor: c.actor.id,
    seed: {
      ...baseSeed(c, id),
      gmail: {
        messages: [
          {
            from: `"${cust.contact.name}" <${cust.contact.email}>`,
            to: [c.actor.id],
            subject: `Order 4711 for ${cust.company}`,
            text: 'Planted.',
            at: '-2h',
          },
        ],
      },
      drive: { files: [{ name: `${cust.company} order 4711.txt`, owner: c.actor.id, text: 'Planted.' }] },
      calendar: {
        events: [
          {
            calendar: c.actor.id,
            summary: `${cust.company} handover`,
            start: { dateTime: '2026-03-03T10:00:00Z' },
            end: { dateTime: '2026-03-03T11:00:00Z' },
          },
        ],
      },
      slack: {
        channels: [{ name: 'general', general: true }],
        messages: [{ channel: 'general', user: c.actor.id, text: 'Planted.', at: '-1h' }],
      },
    },
    world: { volume },
    oracle: { id: 'none', params: {} },
    reference: [],
  }
  return TaskSpec.parse(input)
}

type Doc = {
  gmail: { messages: { from: string; to: string[]; subject: string; text: string }[] }
  calendar: { events: unknown[] }
  drive: { files: { name: string }[] }
  docs?: { documents: unknown[] }
  slack: { channels: { name: string }[]; messages: { text: string }[] }
}
const doc = (t: TaskSpec) => taskWorldSeed(t) as unknown as Doc

/** The human-readable text of seed items (not the user ids in to/from/owner/members). */
function textsOf(v: unknown): string[] {
  if (Array.isArray(v)) return v.flatMap(textsOf)
  if (!v || typeof v !== 'object') return []
  return Object.entries(v).flatMap(([k, x]) =>
    ['subject', 'text', 'summary', 'description', 'name', 'title', 'purpose'].includes(k) && typeof x === 'string'
      ? [x]
      : typeof x === 'object'
        ? textsOf(x)
        : [],
  )
}

async function get(ep: ReturnType<typeof gym.reset>, path: string, query: Record<string, string> = {}) {
  const res = await ep.call({ tool: 'http_request', arguments: { method: 'GET', path, query } })
  expect(res.status, path).toBe(200)
  return res.body as Record<string, any>
}

describe('world generator', () => {
  it('builds byte-identical templates from the same task and volume in separate managers', () => {
    const t = task('medium')
    const a = createGym({ tasks: [] })
    const b = createGym({ tasks: [] })
    try {
      const ea = a.reset(t)
      const eb = b.reset(t)
      expect(ea.entry.baseline.bytes.equals(eb.entry.baseline.bytes)).toBe(true)
      expect(JSON.stringify(worldState(ea.entry.world))).toBe(JSON.stringify(worldState(eb.entry.world)))
    } finally {
      a.worlds.close()
      b.worlds.close()
    }
    expect(JSON.stringify(doc(t))).toBe(JSON.stringify(doc(task('medium'))))
    expect(JSON.stringify(doc(t))).not.toBe(JSON.stringify(doc(task('medium', 'world-probe-2'))))
  })

  it('gives a volume world an office whose rooms the background meetings book, and none at none', () => {
    const rooms = (v: Volume) => {
      const ep = gym.reset(task(v))
      try {
        const state = worldState(ep.entry.world).services
        const resources = Object.values(state.identity!.entities.resources ?? {}) as { email: string }[]
        const booked = Object.values(state.calendar!.entities.events ?? {}).filter((e) =>
          String((e as { calendarId: string }).calendarId).endsWith('@resource.calendar.google.com'),
        )
        return { resources: resources.length, booked: booked.length }
      } finally {
        ep.close()
      }
    }
    expect(rooms('none')).toEqual({ resources: 0, booked: 0 })
    const medium = rooms('medium')
    expect(medium.resources).toBe(4)
    expect(medium.booked).toBeGreaterThan(0)
  })

  it('adds more of every kind of content as the volume grows, and nothing at none', () => {
    const counts = (['none', 'light', 'medium', 'heavy'] as const).map((v) => {
      const d = doc(task(v))
      return [
        d.gmail.messages.length,
        d.calendar.events.length,
        d.drive.files.length + (d.docs?.documents.length ?? 0),
        d.slack.messages.length,
      ]
    })
    expect(counts[0]).toEqual([1, 1, 1, 1])
    for (let i = 1; i < counts.length; i++)
      for (let k = 0; k < 4; k++) expect(counts[i]![k]).toBeGreaterThan(counts[i - 1]![k]!)
    const [mails, events, files, slack] = counts[2]!
    expect(mails).toBeGreaterThanOrEqual(200)
    expect(events).toBeGreaterThanOrEqual(20)
    expect(files).toBeGreaterThanOrEqual(100)
    expect(slack).toBeGreaterThanOrEqual(250)
  })

  it("gives some background docs a colleague's pending suggestion, never by the doc's owner", () => {
    const docs = (doc(task('medium')).docs?.documents ?? []) as { owner: string; suggestions?: { author: string }[] }[]
    const suggested = docs.filter((d) => d.suggestions?.length)
    expect(suggested.length).toBeGreaterThan(0)
    expect(suggested.length).toBeLessThan(docs.length)
    for (const d of suggested) for (const s of d.suggestions!) expect(s.author).not.toBe(d.owner)
  })

  it('serves the background through the APIs: threads, labels, folders, sharing, events, channels', async () => {
    const ep = gym.reset(task('medium'))
    try {
      const threads = await get(ep, '/gmail/v1/users/me/threads', {
        q: 'subject:"load test results"',
        maxResults: '50',
      })
      expect(threads.threads?.length).toBeGreaterThan(0)
      const list = await get(ep, '/gmail/v1/users/me/messages', { q: 'list:thecloudbrief.example', maxResults: '5' })
      expect(list.messages?.length).toBeGreaterThan(0)
      const labels = await get(ep, '/gmail/v1/users/me/labels')
      expect(labels.labels.map((l: { name: string }) => l.name)).toEqual(expect.arrayContaining([...RESERVED.labels]))
      const filed = await get(ep, '/gmail/v1/users/me/messages', { q: 'label:Newsletters from:thecloudbrief.example' })
      expect(filed.messages?.length).toBeGreaterThan(0)
      const folders = await get(ep, '/drive/v3/files', {
        q: "mimeType = 'application/vnd.google-apps.folder'",
        pageSize: '100',
      })
      expect(folders.files.length).toBeGreaterThanOrEqual(4)
      const shared = await get(ep, '/drive/v3/files', { q: 'sharedWithMe', pageSize: '100' })
      const events = await get(ep, '/calendar/v3/calendars/primary/events', {
        singleEvents: 'true',
        timeMin: '2026-02-23T00:00:00Z',
        timeMax: '2026-03-09T00:00:00Z',
        maxResults: '250',
      })
      expect(events.items.length).toBeGreaterThan(10)
      const chans = await get(ep, '/api/conversations.list', { limit: '100' })
      const names = chans.channels.map((c: { name: string }) => c.name)
      expect(names).toContain('general')
      expect(names.filter((n: string) => (RESERVED.channels as readonly string[]).includes(n)).length).toBe(6)
      expect(shared.files.length).toBeGreaterThan(0)
    } finally {
      ep.close()
    }
  })

  it('never reuses a plant domain, a world user name or a plant subject in the background, in any family', () => {
    const bad: string[] = []
    for (const f of families) {
      for (const seed of [1, 2]) {
        const t = TaskSpec.parse({ ...f.generate(seed), world: { volume: 'heavy' } })
        if (typeof t.seed === 'string') continue
        const plant = t.seed as Record<string, any>
        const grown = taskWorldSeed(t) as Record<string, any>
        const size = (k: string, arrKey: string) => (plant[k]?.[arrKey]?.length ?? 0) as number
        const bg = JSON.stringify([
          ...(grown.gmail?.messages ?? []).slice(size('gmail', 'messages')),
          ...(grown.drive?.files ?? []).slice(size('drive', 'files')),
          ...(grown.docs?.documents ?? []).slice(size('docs', 'documents')),
          ...(grown.calendar?.events ?? []).slice(size('calendar', 'events')),
          ...(grown.slack?.channels ?? []).slice(size('slack', 'channels')),
          ...(grown.slack?.messages ?? []).slice(size('slack', 'messages')),
        ]).toLowerCase()
        for (const n of needles(plant)) if (bg.includes(n)) bad.push(`${t.id}: "${n}"`)
        const domains = new Set([...bg.matchAll(/@([a-z0-9.-]+\.[a-z]{2,})/g)].map((m) => m[1]!))
        for (const d of domains)
          if (d !== String(plant.domain).toLowerCase() && !RESERVED.domains.includes(d))
            bad.push(`${t.id}: domain ${d}`)
        const texts = JSON.stringify(textsOf(JSON.parse(bg))).toLowerCase()
        for (const u of plant.users as { name: string }[]) {
          const first = u.name.split(' ')[0]!.toLowerCase()
          if (new RegExp(`\\b${first}\\b`).test(texts)) bad.push(`${t.id}: name ${first}`)
        }
        const taken = (plant.slack?.channels ?? []).map((c: { name: string }) => c.name)
        for (const c of (grown.slack?.channels ?? []).slice(taken.length))
          if (taken.includes(c.name)) bad.push(`${t.id}: channel ${c.name}`)
      }
    }
    expect(bad).toEqual([])
  }, 120_000)

  it('drops background items that name a world user (whole words only) or mention a plant subject', () => {
    const seed = {
      now: '2026-03-02T09:00:00Z',
      domain: 'corp.test',
      users: [
        { id: 'anouk', email: 'anouk@corp.test', name: 'Anouk Ines' },
        { id: 'ben', email: 'ben@corp.test', name: 'Ben Ode' },
      ],
      gmail: { messages: [{ from: 'ben', to: ['anouk'], subject: 'Load test results', text: 'x', at: '-1h' }] },
    }
    const grown = expandWorld(seed, { volume: 'medium', key: 'names', services: ['gmail', 'slack'] }) as unknown as Doc
    const bg = grown.gmail.messages.slice(1)
    expect(bg.length).toBeGreaterThan(100)
    expect(
      bg.filter((m) => /\banouk\b/i.test(`${m.subject} ${m.text}`) || (m.from.includes('<') && /anouk/i.test(m.from))),
    ).toEqual([])
    expect(bg.filter((m) => /load test results/i.test(`${m.subject} ${m.text}`))).toEqual([])
    expect(bg.filter((m) => /pipeline/i.test(m.text)).length).toBeGreaterThan(0)
  })

  it('keeps ids opaque: no background seed key or role word reaches an id', () => {
    const ep = gym.reset(task('light'))
    try {
      const state = worldState(ep.entry.world)
      const ids = Object.values(state.services).flatMap((s) =>
        Object.values(s.entities).flatMap((items) => Object.keys(items)),
      )
      expect(ids.length).toBeGreaterThan(50)
      expect(ids.filter((id) => /bg-|folder|file-|msg-/i.test(id))).toEqual([])
    } finally {
      ep.close()
    }
  })

  it('builds a template once per task and volume (the reset clones it)', () => {
    const g = createGym({ tasks: [] })
    try {
      g.reset(task('light')).close()
      g.reset(task('light')).close()
      expect(g.worlds.templateStats().count).toBe(1)
      g.reset(task('medium')).close()
      expect(g.worlds.templateStats().count).toBe(2)
    } finally {
      g.worlds.close()
    }
  })

  it('leaves a seed alone at volume none and for named seeds', () => {
    const t = task('none')
    expect(taskWorldSeed(t)).toBe(t.seed)
    expect(expandWorld({ users: [] }, { volume: 'heavy', key: 'x', services: ['gmail'] })).toEqual({ users: [] })
    expect(taskWorldSeed({ ...t, seed: 'demo', world: { volume: 'heavy' } })).toBe('demo')
  })

  it('gives each original family distinct instructions and every volume over its first eight seeds', () => {
    for (const f of families.filter((x) => ORIGINAL.includes(x.id))) {
      const ts = Array.from({ length: 8 }, (_, i) => TaskSpec.parse(f.generate(i + 1)))
      expect(new Set(ts.map((t) => t.instruction)).size, f.id).toBe(8)
      expect(new Set(ts.map((t) => t.world?.volume)), f.id).toEqual(new Set(['none', 'light', 'medium', 'heavy']))
    }
    expect(families.filter((x) => ORIGINAL.includes(x.id)).length).toBe(ORIGINAL.length)
  })

  it('phrasing picks among the variants by the rng, and volumeFor covers every volume over eight seeds', () => {
    const seen = new Set(Array.from({ length: 30 }, (_, i) => phrasing(rng(i), [() => 'a', () => 'b', () => 'c'])))
    expect([...seen].sort()).toEqual(['a', 'b', 'c'])
    expect(new Set(Array.from({ length: 8 }, (_, i) => volumeFor(i + 1)))).toEqual(
      new Set(['none', 'light', 'medium', 'heavy']),
    )
  })
})
