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
