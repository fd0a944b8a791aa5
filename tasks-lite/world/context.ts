import { rng, type Rng } from '../families/common.ts'
import { BG_FIRST, BG_LAST } from './vocab.ts'

export type Volume = 'none' | 'light' | 'medium' | 'heavy'

/** How much background one volume adds (the actor's share; other world users get `othersShare` of the mail). */
export type VolumeSpec = {
  /** Internal threads, newsletter issues, notifications and outside threads in the actor's mailbox. */
  threads: number
  newsletters: number
  notifications: number
  external: number
  /** Calendar: recurring series per user and one-off events per user over the weeks around `now`. */
  recurring: number
  oneOffs: number
  /** Drive: folders and files in the tree (spread over the users, most owned by the actor), Google Docs. */
  folders: number
  files: number
  docs: number
  /** Slack: background channels, messages in them (over ~3 months) and DM conversations. */
  channels: number
  messages: number
  dms: number
  othersShare: number
}

/** Counts per volume (docs/decisions/0120-world-generator.md lists what they build to). */
export const VOLUMES: Record<Exclude<Volume, 'none'>, VolumeSpec> = {
  light: {
    threads: 8,
    newsletters: 6,
    notifications: 8,
    external: 3,
    recurring: 2,
    oneOffs: 6,
    folders: 4,
    files: 20,
    docs: 2,
    channels: 3,
    messages: 40,
    dms: 1,
    othersShare: 0.25,
  },
  medium: {
    threads: 45,
    newsletters: 30,
    notifications: 60,
    external: 15,
    recurring: 4,
    oneOffs: 25,
    folders: 12,
    files: 120,
    docs: 5,
    channels: 6,
    messages: 300,
    dms: 3,
    othersShare: 0.2,
  },
  heavy: {
    threads: 120,
    newsletters: 80,
    notifications: 160,
    external: 40,
    recurring: 6,
    oneOffs: 60,
    folders: 28,
    files: 360,
    docs: 10,
    channels: 10,
    messages: 1000,
    dms: 5,
    othersShare: 0.15,
  },
}

export type SeedUser = { id: string; email: string; name: string; timeZone?: string }
/** A background coworker: a person at the company's domain who is not a world user (no account in this world). */
export type BgPerson = { name: string; first: string; email: string }

export type WorldCtx = {
  r: Rng
  users: SeedUser[]
  actor: SeedUser
  domain: string
  nowMs: number
  vol: VolumeSpec
  coworkers: BgPerson[]
  /** True when `text` mentions one of the plants' distinctive strings (then the item is dropped). */
  collides: (text: string) => boolean
  /** Label names the plants already define (lower case). */
  takenLabels: Set<string>
}

/** FNV-1a over a string: the generator's seed from (task id, volume, part). */
export function hashSeed(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0
  return h
}

export const forkRng = (key: string) => rng(hashSeed(key))

/** Background coworkers at the company domain, named from the haystack's own pools. */
export function coworkers(r: Rng, domain: string, n: number): BgPerson[] {
  const firsts = r.sample(BG_FIRST, Math.min(n, BG_FIRST.length))
  return firsts.map((first) => {
    const last = r.pick(BG_LAST)
    return { first, name: `${first} ${last}`, email: `${first}.${last}@${domain}`.toLowerCase() }
  })
}

/** A relative seed time `minutes` before now (`-123m`); never later than a minute ago. */
export const ago = (minutes: number) => `-${Math.max(1, Math.round(minutes))}m`
export const DAY = 24 * 60
export const addr = (p: { name: string; email: string }) => `"${p.name}" <${p.email}>`
