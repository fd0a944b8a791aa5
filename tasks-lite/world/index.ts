/**
 * The world generator: realistic background volume (mail, calendar, Drive and Docs, Slack) around a family's planted
 * entities, deterministic from (task id, volume). Applied at reset (gym/index.ts `worldSeed`); the inline seed in a
 * task file stays small. See docs/decisions/0120-world-generator.md.
 */
import { backgroundMail } from './gmail.ts'
import { backgroundEvents } from './calendar.ts'
import { withOffice } from './rooms.ts'
import { backgroundDrive } from './drive.ts'
import { backgroundSlack } from './slack.ts'
import { coworkers, forkRng, VOLUMES, type SeedUser, type Volume, type WorldCtx } from './context.ts'
import { resolveSeedTime } from '../../envs/core/seed-types.ts'

export { VOLUMES, type Volume, type VolumeSpec } from './context.ts'
export { RESERVED } from './vocab.ts'
export { phrasing, volumeFor } from './phrasing.ts'

type Doc = Record<string, unknown> & { users?: SeedUser[]; domain?: string; now?: string }
type Obj = Record<string, unknown>
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {})
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/**
 * The plants' distinctive strings: outside domains and names, subjects, file and doc titles, labels, event summaries.
 * (Channel names are compared whole by the Slack generator: a plant channel called `team` must not drop every text
 * that says "team".)
 */
export function needles(seed: Doc): string[] {
  const out = new Set<string>()
  const own = String(seed.domain ?? '').toLowerCase()
  const add = (s: unknown) => {
    const t = String(s ?? '')
      .trim()
      .toLowerCase()
      .replace(/^(re|fwd?):\s*/, '')
    if (t.length >= 4) out.add(t)
  }
  const text = JSON.stringify(seed)
  for (const m of text.matchAll(/[A-Za-z0-9._%+-]+@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g)) {
    const d = m[1]!.toLowerCase()
    if (d !== own) {
      add(d)
      add(d.split('.')[0])
    }
  }
  const gmail = obj(seed.gmail)
  for (const m of arr(gmail.messages)) {
    add(obj(m).subject)
    const dn = /^"?([^"<]+?)"?\s*</.exec(String(obj(m).from ?? ''))
    if (dn) add(dn[1])
  }
  for (const l of arr(gmail.labels)) add(obj(l).name)
  for (const f of arr(obj(seed.drive).files)) add(obj(f).name)
  for (const d of arr(obj(seed.docs).documents)) add(obj(d).title)
  for (const e of arr(obj(seed.calendar).events)) add(obj(e).summary)
  return [...out]
}

const SERVICES_OF: Record<string, string[]> = {
  gmail: ['gmail'],
  calendar: ['calendar'],
  drive: ['drive', 'docs'],
  docs: ['drive', 'docs'],
  slack: ['slack'],
}

/**
 * The seed with background volume added for `services` (the task's apps; Drive and Docs go together). Plants come
 * first and keep their keys; background items use `bg-` keys and are dropped when they mention a plant's strings.
 */
export function expandWorld(seed: Doc, opts: { volume: Volume; key: string; services: readonly string[] }): Doc {
  if (opts.volume === 'none') return seed
  const users = arr(seed.users) as SeedUser[]
  if (!users.length) return seed
  const actor = users[0]!
  const domain = String(seed.domain ?? actor.email.split('@')[1] ?? 'example.com')
  const nowMs = resolveSeedTime(String(seed.now ?? '2026-03-02T09:00:00Z'), 0)
  const found = needles(seed)
  const takenLabels = new Set(arr(obj(seed.gmail).labels).map((l) => String(obj(l).name).toLowerCase()))
  // World users' names are matched as whole words ("Ines" must not drop every mail that says "pipelines").
  const esc = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const words = users.flatMap((u) => [u.name ?? '', (u.name ?? '').split(' ')[0]!]).filter((w) => w.length >= 3)
  const named = words.length ? new RegExp(`\\b(?:${words.map(esc).join('|')})\\b`, 'i') : undefined
  const collides = (t: string) => {
    const l = t.toLowerCase()
    return found.some((n) => l.includes(n)) || (named?.test(t) ?? false)
  }
  const want = new Set(opts.services.flatMap((s) => SERVICES_OF[s] ?? []))
  const base = `${opts.key}:${opts.volume}`
  const ctx = (part: string): WorldCtx => {
    const r = forkRng(`${base}:${part}`)
    return {
      r,
      users,
      actor,
      domain,
      nowMs,
      vol: VOLUMES[opts.volume as Exclude<Volume, 'none'>],
      coworkers: coworkers(forkRng(`${base}:people`), domain, 14),
      collides,
      takenLabels,
    }
  }
  const out: Doc = { ...seed }
  if (want.has('gmail')) {
    const g = obj(seed.gmail)
    const bg = backgroundMail(ctx('gmail'))
    out.gmail = { ...g, labels: [...arr(g.labels), ...bg.labels], messages: [...arr(g.messages), ...bg.messages] }
  }
  if (want.has('calendar')) {
    const c = obj(seed.calendar)
    const events = { ...c, events: [...arr(c.events), ...backgroundEvents(ctx('calendar'))] }
    out.calendar = withOffice(ctx('rooms'), events, arr(c.events).length)
  }
  if (want.has('drive')) {
    const bg = backgroundDrive(ctx('drive'))
    const d = obj(seed.drive)
    out.drive = { ...d, files: [...arr(d.files), ...bg.files] }
    const docs = obj(seed.docs)
    out.docs = { ...docs, documents: [...arr(docs.documents), ...bg.docs] }
  }
  if (want.has('slack')) {
    const s = obj(seed.slack)
    const taken = new Set(arr(s.channels).map((c) => String(obj(c).name)))
    const bg = backgroundSlack(ctx('slack'), taken)
    out.slack = { ...s, channels: [...arr(s.channels), ...bg.channels], messages: [...arr(s.messages), ...bg.messages] }
  }
  return out
}

/** A task's world: its inline seed expanded to its volume (named seeds such as `demo` are used as they are). */
export function taskWorldSeed(task: {
  id: string
  seed: string | Obj
  services: readonly string[]
  world?: { volume: Volume }
}): string | Obj {
  if (typeof task.seed === 'string' || !task.world || task.world.volume === 'none') return task.seed
  return expandWorld(task.seed as Doc, { volume: task.world.volume, key: task.id, services: task.services })
}
