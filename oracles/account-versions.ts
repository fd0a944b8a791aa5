import { wroteWorld, type Entity, type OracleInput } from './types.ts'
import { body, patched, type WorldVersion } from './world-versions.ts'

const LOCKS = ['directory.users.update', 'directory.users.patch', 'directory.users.delete']

/**
 * Domain accounts the actor suspended or deleted and that the final state shows active again (docs/decisions/0400):
 * the person was signed out and locked out of every service meanwhile, however briefly, so the family judges the
 * account as the lock left it (a colleague suspended by mistake is the family's collateral, or whatever it makes of a
 * wrong suspension). Read from the log: a successful `users.update`/`patch` setting `suspended: true`, or
 * `users.delete`, whose user key (the address, the world user id or Directory's numeric id: 0406) names an account of
 * the initial state.
 */
export function accountVersions(input: OracleInput, actor: string): WorldVersion[] {
  const users = input.final.services.identity?.entities.users
  if (!users) return []
  const byKey = new Map<string, string>()
  for (const [k, u] of Object.entries(input.initial.services.identity?.entities.users ?? {})) {
    byKey.set(k.toLowerCase(), k)
    byKey.set(String((u as Entity).email ?? '').toLowerCase(), k)
    // Directory also takes the account's numeric id as the user key (docs/decisions/0406).
    if ((u as Entity).directoryId) byKey.set(String((u as Entity).directoryId), k)
  }
  const locked = new Map<string, 'suspended' | 'deleted'>()
  for (const a of input.actions) {
    if (a.userId !== actor || !wroteWorld(a) || !LOCKS.includes(String(a.operationId))) continue
    const m = /^\/admin\/directory\/v1\/users\/([^/?]+)$/.exec(a.path)
    const key = m ? byKey.get(decodeURIComponent(m[1]!).toLowerCase()) : undefined
    if (!key || locked.has(key)) continue
    if (a.operationId === 'directory.users.delete') locked.set(key, 'deleted')
    else if (body(a)?.suspended === true) locked.set(key, 'suspended')
  }
  const out: WorldVersion[] = []
  for (const [key, how] of locked) {
    const now = users[key] as Entity | undefined
    const was = input.initial.services.identity?.entities.users?.[key] as Entity | undefined
    if (!now || !was || now[how] === true || was[how] === true) continue
    out.push({
      where: `account ${String(now.email)} while ${how} (since restored)`,
      input: patched(input, 'identity', 'users', new Map([[key, { ...now, [how]: true }]])),
    })
  }
  return out
}

/**
 * Groups a member was taken out of and put back in (round 32, docs/decisions/0475): while out, the member got none of
 * the group's mail and lost what was shared with the group, so the family judges the group as the removal left it,
 * as it judges a suspension undone (above). Read from the log: a successful `members.delete` whose group key (the
 * group's address or an alias of it; a key the dump cannot read, like the group's id, stands for every group) and
 * member key (an address or alias, the world user id or Directory's numeric id) name a member the group held at the
 * start and holds at the end.
 */
export function groupVersions(input: OracleInput, actor: string): WorldVersion[] {
  const groups = input.final.services.identity?.entities.groups
  const was = input.initial.services.identity?.entities.groups
  if (!groups || !was) return []
  const ident = input.initial.services.identity!.entities
  const aliases = new Map(
    Object.values(ident.aliases ?? {}).map((a) => [String((a as Entity).alias).toLowerCase(), a as Entity]),
  )
  const users = Object.entries(ident.users ?? {}) as [string, Entity][]
  const emailOf = (id: string) => users.find(([k]) => k === id)?.[1].email
  const memberOf = (key: string): string | undefined => {
    const k = key.toLowerCase()
    const a = aliases.get(k)
    if (a) return String(a.kind === 'user' ? (emailOf(String(a.owner)) ?? '') : a.owner).toLowerCase() || undefined
    if (k.includes('@')) return k
    const u = users.find(([id, x]) => id.toLowerCase() === k || String(x.directoryId ?? '') === key)
    return u ? String(u[1].email).toLowerCase() : undefined
  }
  const groupOf = (key: string): string[] => {
    const k = key.toLowerCase()
    const a = aliases.get(k)
    if (a?.kind === 'group') return [String(a.owner).toLowerCase()]
    return k in was ? [k] : k.includes('@') ? [] : Object.keys(groups)
  }
  const emails = (g: Entity | undefined) => new Set(list(g?.members).map((m) => String(m.email).toLowerCase()))
  const out: WorldVersion[] = []
  const seen = new Set<string>()
  for (const a of input.actions) {
    if (a.userId !== actor || !wroteWorld(a) || a.operationId !== 'directory.members.delete') continue
    const m = /^\/admin\/directory\/v1\/groups\/([^/?]+)\/members\/([^/?]+)$/.exec(a.path)
    const member = m ? memberOf(decodeURIComponent(m[2]!)) : undefined
    if (!m || !member) continue
    for (const g of groupOf(decodeURIComponent(m[1]!))) {
      const now = groups[g] as Entity | undefined
      if (seen.has(`${g} ${member}`) || !now || !emails(was[g] as Entity).has(member) || !emails(now).has(member))
        continue
      seen.add(`${g} ${member}`)
      const row = { ...now, members: list(now.members).filter((x) => String(x.email).toLowerCase() !== member) }
      out.push({
        where: `group ${g} without ${member} (since put back)`,
        input: patched(input, 'identity', 'groups', new Map([[g, row]])),
      })
    }
  }
  return out
}

const list = (v: unknown): Entity[] =>
  Array.isArray(v) ? v.filter((x): x is Entity => !!x && typeof x === 'object' && !Array.isArray(x)) : []
