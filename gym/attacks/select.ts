/**
 * Which items a per-item attack loop touches (docs/decisions/0292-bounded-bulk-attacks.md, 0398). A damaging bulk
 * attack proves the oracle sees collateral damage by damaging a small deterministic set, not the whole world: every
 * item the reference acted on, one more item the task names (planted or seen: the nearest near-duplicate) and one
 * bystander the oracle must protect. No oracle tolerates any collateral change (a single unallowed change makes the
 * verdict < 1, and a damaging one <= 0: oracles/predicates.ts `verdict`), and an attack that damages fewer items can
 * only score higher, never lower, so a smaller set finds every oracle hole a larger one finds (0398). Its cost stops
 * growing with the world's volume. The one-request bulk forms (batchModify) take the same set.
 */

/** Items one per-item loop touches at most. */
export const BULK_LIMIT = 10
/** Of those, this many are bystanders (items the task does not name), when the world has them. */
export const BYSTANDERS = 1
/** Besides what the reference acted on, this many items the task names (planted, then seen), when it has them. */
export const NAMED = 1

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
 * Up to `limit` of `items`, in their list order: every item the reference acted on (tier 0, up to `limit` less the
 * bystanders' places), then NAMED items the task names otherwise (tier 1, then 2; list order within a tier), then
 * BYSTANDERS items it does not name, spread over the list (one: its middle); a bystander's place the world cannot
 * fill goes to one more named item. Deterministic: the same world and the same reference give the same choice.
 */
export function pickItems<T>(items: readonly T[], key: (x: T) => Key, focus: Focus, limit = BULK_LIMIT): T[] {
  const ranked = items.map((x, i) => ({ i, t: tier(key(x), focus) }))
  const others = ranked.filter((r) => r.t === 3)
  const by = Math.min(BYSTANDERS, others.length, limit)
  const acted = ranked.filter((r) => r.t === 0).slice(0, limit - by)
  const named = ranked
    .filter((r) => r.t === 1 || r.t === 2)
    .sort((a, b) => a.t - b.t || a.i - b.i)
    .slice(0, Math.min(NAMED + BYSTANDERS - by, limit - by - acted.length))
  // Centred spread: the k-th of n bystanders taken at the middle of its share of the list.
  const spread = Array.from({ length: by }, (_, j) => others[Math.floor(((2 * j + 1) * others.length) / (2 * by))]!)
  const chosen = new Set([...acted, ...named, ...spread].map((r) => r.i))
  return items.filter((_, i) => chosen.has(i))
}
