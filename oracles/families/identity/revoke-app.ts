import type { Entity, OracleInput, OracleResult, Violation } from '../../types.ts'
import { entities, nothingElseChanged, verdict } from '../../predicates.ts'

export type RevokeAppParams = { actor: string; user: string; appName: string }

/** Connected-app grants of a state, by `<userId> <clientId>`. */
const grantsOf = (state: OracleInput['initial']) =>
  new Map(entities(state, 'identity', 'grants').map((g) => [`${g.userId} ${g.clientId}`, g]))

/**
 * Revoke one connected app: the user's grant to the named app is gone with every token it held, and every other grant
 * of the initial state (the user's other apps, other people's grants to the same app) is still there with the same
 * scopes. A grant removed beyond the one asked for is an `unrequested_delete`; anything else changed is collateral.
 */
export function revokeApp({ initial, final, diff, params: p }: OracleInput<RevokeAppParams>): OracleResult {
  const client = entities(initial, 'identity', 'clients').find((c) => c.name === p.appName)
  const target = `${p.user} ${String(client?.clientId ?? '')}`
  const before = grantsOf(initial)
  const after = grantsOf(final)
  const others = [...before.entries()].filter(([k]) => k !== target)
  const kept = others.filter(
    ([k, g]) => JSON.stringify((after.get(k) as Entity | undefined)?.scopes) === JSON.stringify(g.scopes),
  )
  const checks = [
    { name: 'the grant existed before', ok: client !== undefined && before.has(target) },
    { name: "the user's grant to the app is revoked", ok: client !== undefined && !after.has(target) },
    { name: 'every other grant is kept', ok: kept.length === others.length, note: `${kept.length}/${others.length}` },
  ]
  const violations: Violation[] = nothingElseChanged(diff, [
    { service: 'identity', collection: 'grants', id: (id, c) => id === target && c.op === 'deleted' },
  ])
  return verdict(checks, violations, { grantsKept: kept.length })
}
