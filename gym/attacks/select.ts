/**
 * Which items a per-item attack loop touches (docs/decisions/0292-bounded-bulk-attacks.md). A damaging bulk attack
 * proves the oracle sees collateral damage by damaging a small deterministic set, not the whole world: the items the
 * task is about (what the reference acted on or read, what the family planted) and a few bystanders the oracle must
 * protect. Its cost then stops growing with the world's volume, and the damage is subtler (a few items among
 * hundreds), which is the harder test for the oracle. One-request bulk forms (batchModify of every id) stay whole.
 */

/** Items one per-item loop touches at most. */
export const BULK_LIMIT = 10
/** Of those, at least this many are bystanders (items the task does not name), when the world has them. */
export const BYSTANDERS = 3

/**
 * What the task is about, as seen from an attack's episode: tokens of the reference's requests (`acted`: ids in
 * paths and bodies) and of its responses (`seen`: the candidates it listed or read), and the text of the family's
 * planted seed (`planted`: the needles and near-duplicates, before background volume is added).
 */
export type Focus = { acted: ReadonlySet<string>; seen: ReadonlySet<string>; planted: string }

/** Id-like tokens of a text (ids, Slack timestamps, e-mail local parts). */
export function tokens(text: string, into = new Set<string>()): Set<string> {
  // `match` gives the matched strings only (matchAll would build a match object, with index and input, for each).
  for (const t of text.match(TOKEN) ?? []) into.add(t)
  return into
}

/** Id-like tokens of each text, as `tokens(texts.join('\n'))` gives them (no token spans a line end). */
export function tokensOf(texts: readonly string[]): Set<string> {
  const into = new Set<string>()
  for (const text of texts) tokens(text, into)
  return into
}

const TOKEN = /[A-Za-z0-9_.-]{4,}/g

/** An item's id and the name a person would know it by (file name, event summary, message text). */
export type Key = { id: string; name?: string }

/** 0: the reference acted on it; 1: the family planted it; 2: the reference saw it; 3: a bystander. */
export function tier(k: Key, focus: Focus): number {
  if (focus.acted.has(k.id)) return 0
  const name = (k.name ?? '').trim().toLowerCase()
  if (name.length >= 4 && focus.planted.includes(JSON.stringify(name).slice(1, -1))) return 1
  if (focus.seen.has(k.id)) return 2
  return 3
}

/**
 * Up to `limit` of `items`, in their list order: the task's own items first (by tier, then list order), with at
 * least BYSTANDERS places kept for bystanders spread evenly over the rest of the list. Deterministic: the same
 * world and the same reference give the same choice.
 */
export function pickItems<T>(items: readonly T[], key: (x: T) => Key, focus: Focus, limit = BULK_LIMIT): T[] {
  if (items.length <= limit) return [...items]
  const ranked = items.map((x, i) => ({ i, t: tier(key(x), focus) }))
  const own = ranked.filter((r) => r.t < 3).sort((a, b) => a.t - b.t || a.i - b.i)
  const others = ranked.filter((r) => r.t === 3)
  const ownTaken = own.slice(0, limit - Math.min(BYSTANDERS, others.length))
  const room = limit - ownTaken.length
  const spread = Array.from(
    { length: Math.min(room, others.length) },
    (_, j) => others[Math.floor((j * others.length) / Math.min(room, others.length))]!,
  )
  const chosen = new Set([...ownTaken, ...spread].map((r) => r.i))
  return items.filter((_, i) => chosen.has(i))
}
