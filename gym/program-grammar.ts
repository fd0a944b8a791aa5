/**
 * The grammar of solution programs, with no dependency on the gym itself: `save` paths (`pick`), `{{name}}`
 * bindings (`fill`) and control-side macros (`expandMacros`). The gym runs programs with it in process and the
 * trainer replays them over HTTP with the same code (the one gym module the trainer may import).
 */
import { createHash } from 'node:crypto'
import MailComposer from 'nodemailer/lib/mail-composer/index.js'

export type Vars = Record<string, unknown>

/** Filters a save path may end with (`payload.headers[name=from].value|email`). */
const FILTERS: Record<string, (v: unknown) => unknown> = {
  /** The first email address in a header value (`"Ann Lee" <ann@x.test>` → `ann@x.test`). */
  email: (v) => /[^\s<>"',;]+@[^\s<>"',;]+/.exec(String(v ?? ''))?.[0],
  /** The domain of the first email address in a value. */
  domain: (v) => /[^\s<>"',;]+@([^\s<>"',;]+)/.exec(String(v ?? ''))?.[1],
  /** Base64 or base64url text decoded as UTF-8 (Gmail's `attachments.get` data, a message's `raw`). */
  base64: (v) => (typeof v === 'string' ? Buffer.from(v, 'base64url').toString('utf8') : undefined),
}

/**
 * Reads a path from a value: dotted keys and indexes (`messages.0.id`), `*` maps over an array
 * (`messages.*.id`; a negative index counts from the end: `items.-1.id`), and `[field=value]` picks the first element
 * whose field matches, case-insensitively (`[field~=value]`: contains) (`payload.headers[name=message-id].value`,
 * `permissions[type=anyone].id`). A trailing `|email` or `|domain`
 * extracts the first address (or its domain) from the value found.
 */
export function pick(value: unknown, path: string): unknown {
  const bar = path.lastIndexOf('|')
  if (bar > 0 && FILTERS[path.slice(bar + 1)]) return FILTERS[path.slice(bar + 1)]!(pick(value, path.slice(0, bar)))
  if (path === '$') return value
  const keys = pathKeys(path)
  let cur: unknown = value
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!
    if (cur === null || cur === undefined) return undefined
    if (k === '*') {
      const rest = keys
        .slice(i + 1)
        .map((x) => (x.startsWith('[') ? x : `.${x}`))
        .join('')
        .replace(/^\./, '')
      return Array.isArray(cur) ? cur.map((x) => (rest ? pick(x, rest) : x)) : undefined
    }
    const f = /^\[([\w.-]+)(~?=)([^\]]*)\]$/.exec(k)
    if (f) {
      const want = f[3]!.toLowerCase()
      const ok = (x: unknown) =>
        f[2] === '~='
          ? String(pick(x, f[1]!)).toLowerCase().includes(want)
          : String(pick(x, f[1]!)).toLowerCase() === want
      cur = Array.isArray(cur) ? cur.find(ok) : undefined
      continue
    }
    cur = Array.isArray(cur) && /^-\d+$/.test(k) ? cur.at(Number(k)) : (cur as Record<string, unknown>)[k]
  }
  return cur
}

/** Paths split into keys, kept (bounded): a program picks the same few paths, `*` paths once per array item. */
const splitPaths = new Map<string, readonly string[]>()
const SPLIT_PATHS_CAP = 1024

/** The keys of a `pick` path (only read: the same array serves every pick of that path). */
function pathKeys(path: string): readonly string[] {
  let keys = splitPaths.get(path)
  if (keys) return keys
  keys = path.match(/\[[^\]]*\]|[^.[\]]+/g) ?? []
  if (splitPaths.size >= SPLIT_PATHS_CAP) splitPaths.clear()
  splitPaths.set(path, keys)
  return keys
}

/**
 * Substitutes `{{name}}` bindings (a whole-string binding keeps the bound value's type; `{{ids.0}}` indexes one). A
 * numeric binding may carry an offset: `{{end-1}}` is the bound number minus one (Docs indexes: a cell's text ends
 * before its paragraph mark).
 */
export function fill(value: unknown, vars: Vars): unknown {
  if (typeof value === 'string') {
    // Both patterns below need `{{`: a string without one is returned as it is (most strings of a program).
    if (!value.includes('{{')) return value
    const get = (k: string, offset?: string) => {
      const v = k in vars ? vars[k] : pick(vars, k)
      return offset === undefined || typeof v !== 'number' ? v : v + Number(offset)
    }
    const whole = /^\{\{([\w.]+)([+-]\d+)?\}\}$/.exec(value)
    if (whole) return get(whole[1]!, whole[2])
    return value.replace(/\{\{([\w.]+)([+-]\d+)?\}\}/g, (_, k: string, o?: string) => String(get(k, o) ?? ''))
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, vars))
  if (value && typeof value === 'object') {
    // As Object.fromEntries of the filled entries, without the entry arrays: each key defined as an own property.
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(value)) {
      const v = fill((value as Record<string, unknown>)[k], vars)
      if (k !== '__proto__') out[k] = v
      else Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true })
    }
    return out
  }
  return value
}

type Rfc822 = {
  from?: string
  to: string
  cc?: string
  subject: string
  text: string
  html?: string
  inReplyTo?: string
  references?: string
  attachments?: Rfc822Attachment[]
}
/** `content` is text, or base64 with `encoding: 'base64'` (bytes a binary download gave as base64). */
type Rfc822Attachment = { filename: string; contentType?: string; content: string; encoding?: 'base64' }

/**
 * The composer stamps a random Message-ID and the real clock's Date; both are dropped so the same program sends the
 * same bytes every run, and the server stamps them from the world (as Gmail does for a message that lacks them).
 */
function withoutStamps(buf: Buffer): Buffer {
  const text = buf.toString('latin1')
  const end = text.indexOf('\r\n\r\n')
  if (end < 0) return buf
  const lines = text.slice(0, end).split('\r\n')
  const kept: string[] = []
  let dropping = false
  for (const line of lines) {
    if (/^[ \t]/.test(line)) {
      if (!dropping) kept.push(line)
      continue
    }
    dropping = /^(date|message-id):/i.test(line)
    if (!dropping) kept.push(line)
  }
  return Buffer.from(`${kept.join('\r\n')}${text.slice(end)}`, 'latin1')
}

/**
 * Expands `{"$rfc822": {...}}` into a base64url RFC 822 message (macros run on the control side, never by the agent).
 */
export async function expandMacros(value: unknown): Promise<unknown> {
  // Most arguments hold no macro: copied as the walk below would copy them, without a promise per value.
  return hasMacro(value) ? expandAsync(value) : copyPlain(value)
}

/** True when a `$rfc822` key is anywhere in `value`. */
function hasMacro(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasMacro)
  if (value && typeof value === 'object') {
    if ('$rfc822' in value) return true
    for (const v of Object.values(value)) if (hasMacro(v)) return true
  }
  return false
}

/** What expandAsync gives for a value without macros: arrays and objects copied, everything else as is. */
function copyPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyPlain)
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = copyPlain(v)
    return out
  }
  return value
}

async function expandAsync(value: unknown): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map(expandAsync))
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>
    if ('$rfc822' in o) return rfc822(o.$rfc822 as Rfc822)
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(o)) out[k] = await expandAsync(v)
    return out
  }
  return value
}

/**
 * Composed messages by their description: composing is a pure function of it, and validation runs the same steps in
 * every episode of a task (reference, near misses, attacks built from them). Bounded; a failure is not kept.
 */
const composed = new Map<string, Promise<string>>()
const MAX_COMPOSED = 256

function rfc822(m: Rfc822): Promise<string> {
  const description = JSON.stringify(m)
  let out = composed.get(description)
  if (!out) {
    if (composed.size >= MAX_COMPOSED) composed.clear()
    composed.set(description, (out = compose(m, description)))
    out.catch(() => composed.delete(description))
  }
  return out
}

async function compose(m: Rfc822, description: string): Promise<string> {
  // A boundary derived from the message itself, so the same program composes the same bytes.
  const baseBoundary = createHash('sha256').update(description).digest('hex').slice(0, 16)
  const attachments = m.attachments?.map((a) => ({
    filename: a.filename,
    contentType: a.contentType,
    content: Buffer.from(a.content, a.encoding === 'base64' ? 'base64' : 'utf8'),
  }))
  // `baseBoundary` is a MimeNode option MailComposer passes through (its typings omit it).
  // Object.assign onto a new object (not `{ ...m, … }`, which took a hidden class of its own each time: 0446).
  const options = Object.assign({}, m, {
    baseBoundary,
    inReplyTo: m.inReplyTo || undefined,
    references: m.references || undefined,
    attachments,
  })
  const composer = new MailComposer(options as ConstructorParameters<typeof MailComposer>[0])
  const buf: Buffer = await new Promise((res, rej) =>
    composer.compile().build((err: Error | null, b: Buffer) => (err ? rej(err) : res(b))),
  )
  return withoutStamps(buf).toString('base64url')
}

/** What a program's `$text` binds from an observation's body: text as is, bytes as their base64, JSON as JSON text. */
export function bodyText(body: unknown): string {
  if (typeof body === 'string') return body
  if (body === null || body === undefined) return ''
  const b = body as Record<string, unknown>
  const keys = Object.keys(b)
  if (keys.length === 3 && typeof b.base64 === 'string' && typeof b.size === 'number' && 'contentType' in b)
    return b.base64
  return JSON.stringify(body)
}
