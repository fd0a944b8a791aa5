/**
 * "Looked before it acted": every literal id, time, address or figure in a reference step must come from the
 * instruction, from what the agent knows about itself, or from an earlier step's observation. Values taken from
 * observations through `{{bindings}}` are fine by construction; what is left of a step once its bindings are removed
 * is checked here. Pure (no gym or world imports) so the trainer and tests can use it too.
 */
import { DateTime } from 'luxon'

/** One literal a step uses without having seen it. */
export type Unexplained = {
  kind: 'email' | 'domain' | 'token' | 'date' | 'time' | 'zone'
  value: string
  where: string
}

const EMAIL = /[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}/gi
const ISO = /\b(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g
const UNTIL = /\bUNTIL=(\d{4})(\d{2})(\d{2})(?:T\d{6}Z?)?/g
const EPOCH = /^\d{10}(\d{3})?$/
const ZONE = /\b(?:Africa|America|Asia|Atlantic|Australia|Europe|Pacific|Indian)\/[A-Za-z_]+(?:\/[A-Za-z_]+)?/g
const TOKEN = /[A-Za-z0-9][A-Za-z0-9_-]*/g
const DOMAIN = /\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:test|com|org|net|io|internal)\b/gi
/** Request knobs, not facts about the world: their values need no provenance. */
const KNOBS =
  /(^|\.)(maxResults|pageSize|limit|count|format|fields|colorId|sendNotificationEmail|sendUpdates|encoding)$/

/** Every string leaf of `value` with its JSON path (numbers count as strings: epoch times are literals too). */
function leaves(value: unknown, at = '', out: { at: string; text: string }[] = []): { at: string; text: string }[] {
  if (typeof value === 'string' || typeof value === 'number') out.push({ at, text: String(value) })
  else if (Array.isArray(value)) value.forEach((v, i) => leaves(v, `${at}[${i}]`, out))
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) leaves(v, at ? `${at}.${k}` : k, out)
  return out
}

/** base64url-decoded text of every `data`/`raw` field (what an agent reads out of a Gmail payload). */
function decoded(body: unknown, out: string[] = []): string[] {
  if (Array.isArray(body)) body.forEach((b) => decoded(b, out))
  else if (body && typeof body === 'object') {
    for (const [k, v] of Object.entries(body)) {
      if ((k === 'data' || k === 'raw') && typeof v === 'string' && v.length >= 8)
        out.push(Buffer.from(v, 'base64url').toString('utf8'))
      else decoded(v, out)
    }
  }
  return out
}

/** Ways a person writes a calendar day (the English forms the worlds use). */
function dayForms(d: DateTime): string[] {
  return ['yyyy-MM-dd', 'd LLLL', 'LLLL d', 'd LLL', 'LLL d'].map((f) => d.setLocale('en').toFormat(f).toLowerCase())
}

/** Tracks what the agent has seen so far and reports literals in a step that it had not seen. */
export class Provenance {
  #seen: string[]

  /** `known`: the instruction and what the agent is told about itself (its email and name). */
  constructor(known: string[]) {
    this.#seen = known.map((k) => k.toLowerCase())
  }

  /** Records an observation (the response text; base64url payloads are decoded as an agent would). */
  observe(text: string, body?: unknown): void {
    this.#seen.push(text.toLowerCase(), ...decoded(body).map((t) => t.toLowerCase()))
  }

  #has = (s: string) => this.#seen.some((t) => t.includes(s.toLowerCase()))
  #dayMentioned = (d: DateTime, slack = 0) => {
    for (let i = -slack; i <= slack; i++) if (dayForms(d.plus({ days: i })).some(this.#has)) return true
    return false
  }

  /** Literals in `args` (bindings removed) that neither the instruction nor an earlier observation explains. */
  unexplained(args: unknown): Unexplained[] {
    const out: Unexplained[] = []
    let timeSeen = false
    for (const { at, text: raw } of leaves(args)) {
      if (KNOBS.test(at)) continue
      let text = raw.replace(/\{\{[\w.]+(?:[+-]\d+)?\}\}/g, ' ')
      if (EPOCH.test(text.trim())) {
        const n = Number(text.trim())
        const d = DateTime.fromMillis(text.trim().length === 13 ? n : n * 1000, { zone: 'utc' })
        if (!this.#dayMentioned(d, 1)) out.push({ kind: 'date', value: text.trim(), where: at })
        continue
      }
      for (const m of text.match(EMAIL) ?? []) if (!this.#has(m)) out.push({ kind: 'email', value: m, where: at })
      text = text.replace(EMAIL, ' ')
      for (const m of text.matchAll(ISO)) {
        const d = DateTime.fromObject({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) })
        if (!this.#dayMentioned(d, 1)) out.push({ kind: 'date', value: m[0], where: at })
        const hm = m[4] ? `${m[4]}:${m[5]}` : undefined
        if (hm && this.#has(hm)) timeSeen = true
        else if (hm && hm !== '00:00') out.push({ kind: 'time', value: m[0], where: at })
      }
      text = text.replace(ISO, ' ')
      // An RRULE's UNTIL is a date in basic format (20260420T173000Z): explained when that day was mentioned.
      for (const m of text.matchAll(UNTIL)) {
        const d = DateTime.fromObject({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) })
        if (!this.#dayMentioned(d, 1)) out.push({ kind: 'date', value: m[0], where: at })
      }
      text = text.replace(UNTIL, ' ')
      // A zone is explained by its city (the mail says "Berlin time"; the request names Europe/Berlin).
      for (const m of text.match(ZONE) ?? [])
        if (!this.#has(m) && !this.#has(m.split('/').pop()!.replace(/_/g, ' ')))
          out.push({ kind: 'zone', value: m, where: at })
      text = text.replace(ZONE, ' ')
      for (const m of text.match(DOMAIN) ?? []) if (!this.#has(m)) out.push({ kind: 'domain', value: m, where: at })
      text = text.replace(DOMAIN, ' ')
      const path = at === 'path'
      for (const m of text.match(TOKEN) ?? []) {
        // An epoch time inside a longer string (a JWT claims set passed as JSON text) is a date, as a bare one is.
        if (EPOCH.test(m)) {
          const d = DateTime.fromMillis(m.length === 13 ? Number(m) : Number(m) * 1000, { zone: 'utc' })
          if (!this.#dayMentioned(d, 1)) out.push({ kind: 'date', value: m, where: at })
          continue
        }
        if (m.length >= 2 && /\d/.test(m) && !(path && /^v\d+$/.test(m)) && !this.#has(m))
          out.push({ kind: 'token', value: m, where: at })
      }
    }
    // An end time is derived from an observed start and length: once one time of the step was seen, the others pass.
    return timeSeen ? out.filter((u) => u.kind !== 'time') : out
  }
}
