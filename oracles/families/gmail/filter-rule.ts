import type { EntityChange } from '../../../envs/core/diff.ts'
import type { Entity, OracleInput, OracleResult } from '../../types.ts'
import { entities, nothingElseChanged, readStateChanges, verdict } from '../../predicates.ts'

export type FilterRuleParams = {
  actor: string
  /** The sender the rule is for (exact address). */
  sender: string
  label: string
  /** The rule must also take the mail out of the inbox. */
  skipInbox: boolean
  /** The sender's mail already in the mailbox must be labelled (and archived when skipInbox) too. */
  applyToExisting: boolean
}

const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : [])
/**
 * Whether a criterion is set: Gmail reads an empty string as unset, as the mock's create does ("Filter doesn't have
 * any criteria"), so `subject: ""` beside `from` is no second condition (0463).
 */
const set = (v: unknown) => v !== undefined && v !== null && v !== false && v !== ''
const FROM_QUERY = /^from:\s*\(?\s*<?([^\s()<>]+?)>?\s*\)?$/i
/** `"Plexo Weekly" <weekly@…>` (quotes optional): a display name, then one address in angle brackets. */
const NAMED = /^\s*(?:"([^"]*)"|([^"<>,]*?))\s*<([^\s<>,]+)>\s*$/
const words = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim()

/**
 * Whether a filter's `from` names the sender: the address (in angle brackets or not), or the address with a display
 * name. Gmail runs `from` as a search of the From header (from:(…), as the mock's delivery does), so a name beside the
 * address narrows nothing while the sender's mail carries it: its words must be in the From name of every mail of
 * theirs (0466). Another name, another address or a list of addresses is not the sender.
 */
function namesSender(from: string, sender: string, names: string[]): boolean {
  const s = sender.toLowerCase()
  if (from.toLowerCase() === s || from.toLowerCase() === `<${s}>`) return true
  const m = NAMED.exec(from)
  if (!m || m[3]!.toLowerCase() !== s) return false
  const name = words(m[1] ?? m[2] ?? '')
  return names.length > 0 && names.every((n) => !name || ` ${words(n)} `.includes(` ${name} `))
}

/**
 * A Gmail filter for one sender: exactly one new filter whose `from` names that sender (not the whole domain, not a
 * near-duplicate sender), whose action adds the asked label (created if needed) and removes INBOX when asked, and
 * nothing else (no forwarding, no trash). When asked, the sender's existing mail gets the same treatment and no other
 * mail does, and nothing beyond it (trashed, spam: 0451). An empty parent of a nested label may be made (0478); other
 * changes are collateral.
 */
export function filterRule({ initial, final, diff, params: p }: OracleInput<FilterRuleParams>): OracleResult {
  const before = new Set(entities(initial, 'gmail', 'filters').map((f) => String(f.id)))
  const made = entities(final, 'gmail', 'filters').filter((f) => f.userId === p.actor && !before.has(String(f.id)))
  const [f] = made
  const crit = (f?.criteria ?? {}) as Entity
  const act = (f?.action ?? {}) as Entity
  // The query "from:‹address›" alone is the same rule as `from` (0463).
  const asQuery = set(crit.from) ? null : FROM_QUERY.exec(String(crit.query ?? '').trim())
  const from = asQuery ? asQuery[1]! : String(crit.from ?? '')
  const label = entities(final, 'gmail', 'labels').find((l) => l.userId === p.actor && l.name === p.label)
  const add = list(act.addLabelIds)
  const remove = list(act.removeLabelIds)
  const otherCriteria = Object.keys(crit).filter((k) => k !== 'from' && set(crit[k]) && !(k === 'query' && asQuery))
  const mine = (m: Entity) =>
    m.userId === p.actor &&
    String(m.from ?? '')
      .toLowerCase()
      .includes(p.sender.toLowerCase())
  const finalMsgs = entities(final, 'gmail', 'messages').filter((m) => m.userId === p.actor)
  const theirs = entities(initial, 'gmail', 'messages').filter(mine)
  const existing = theirs.map((m) => finalMsgs.find((x) => x.id === m.id)).filter((m): m is Entity => !!m)
  const treated = (m: Entity) =>
    !!label && list(m.labelIds).includes(String(label.id)) && (!p.skipInbox || !list(m.labelIds).includes('INBOX'))
  const checks = [
    { name: 'exactly one new filter', ok: made.length === 1, note: `${made.length} filters` },
    {
      name: 'it matches exactly the sender asked',
      ok: namesSender(
        from,
        p.sender,
        theirs.map((m) => String(m.fromName ?? '')),
      ),
    },
    { name: 'and no other condition', ok: !!f && otherCriteria.length === 0 },
    { name: 'it applies the asked label', ok: !!label && add.length === 1 && add[0] === label.id },
    {
      name: p.skipInbox ? 'it skips the inbox' : 'it leaves the inbox alone',
      ok: !!f && (p.skipInbox ? remove.includes('INBOX') : !remove.includes('INBOX')),
    },
    {
      name: 'it does nothing else (no forward, no trash, no other label removed)',
      ok: !!f && !act.forward && remove.every((x) => x === 'INBOX'),
    },
    ...(p.applyToExisting
      ? [{ name: "the sender's existing mail is treated the same", ok: existing.length > 0 && existing.every(treated) }]
      : []),
  ]
  const existingIds = new Set(existing.map((m) => `${m.userId}/${m.id}`))
  // The sender's mail may gain the label and leave the inbox (when asked), nothing more: trashed, marked as spam or
  // starred, it was changed beyond the rule (0451).
  const treatedOnly = (c: EntityChange) => {
    if (c.op !== 'updated' || Object.keys(c.fields).some((k) => k !== 'labelIds')) return false
    const [b, a] = [list(c.fields.labelIds?.before), list(c.fields.labelIds?.after)]
    const added = a.filter((x) => !b.includes(x))
    const removed = b.filter((x) => !a.includes(x))
    return (
      added.every((x) => x === label?.id || x === 'UNREAD') &&
      removed.every((x) => x === 'UNREAD' || (p.skipInbox && x === 'INBOX'))
    )
  }
  // "Vendors/News" nests under "Vendors": making that parent first is how one nests a label by hand (as label-sender
  // allows, 0478). The filter adds the asked label only and the treated mail gains nothing else, so it stays empty.
  const parents = p.label
    .split('/')
    .slice(0, -1)
    .map((_, i, parts) => parts.slice(0, i + 1).join('/'))
  const violations = nothingElseChanged(diff, [
    {
      service: 'gmail',
      collection: 'filters',
      id: (_id, c) => c.op === 'inserted' && made.length === 1 && String((c.after as Entity).id) === String(f?.id),
    },
    {
      service: 'gmail',
      collection: 'labels',
      id: (_id, c) =>
        c.op === 'inserted' &&
        (c.after as Entity).userId === p.actor &&
        ((c.after as Entity).name === p.label || parents.includes(String((c.after as Entity).name))),
    },
    ...(p.applyToExisting
      ? [
          {
            service: 'gmail',
            collection: 'messages',
            id: (id: string, c: EntityChange) => existingIds.has(id) && treatedOnly(c),
          },
        ]
      : []),
    readStateChanges,
  ])
  return verdict(checks, violations, { filters: made.length })
}
