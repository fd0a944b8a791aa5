import { wroteWorld, type Entity, type OracleInput, type OracleResult, type Violation } from '../../types.ts'
import { entities, nothingElseChanged, slackUserOf, verdict } from '../../predicates.ts'

export type SlackUsergroupMembersParams = { actor: string; handle: string; members: string[] }

/**
 * Update one user group's members. The group (found by handle in the initial state) must end with exactly the
 * expected members (world users, mapped to Slack ids): a missing one, a kept leaver or an extra fails. Only its
 * `users` may change; every other group, renaming or disabling it (even when enabled again) or setting its default
 * channels, posts and everything else are collateral.
 */
export function slackUsergroupMembers({
  initial,
  final,
  diff,
  actions,
  params: p,
}: OracleInput<SlackUsergroupMembersParams>): OracleResult {
  const g = entities(initial, 'slack', 'usergroups').find((x) => x.handle === p.handle)
  const after = entities(final, 'slack', 'usergroups').find((x) => x.id === g?.id)
  const want = new Set(p.members.map((m) => slackUserOf(initial, m) ?? `?${m}`))
  const got = new Set((after?.users as string[] | undefined) ?? [])
  const missing = [...want].filter((u) => !got.has(u))
  const extra = [...got].filter((u) => !want.has(u))
  const same = (k: string) =>
    !!g && !!after && JSON.stringify((g as Entity)[k]) === JSON.stringify((after as Entity)[k])
  const checks = [
    {
      name: 'the group has exactly the announced members',
      ok: !!after && missing.length === 0 && extra.length === 0,
      note: `missing ${missing.length}, extra ${extra.length}`,
    },
    // Its default channels too: set beside the members they paid 1, unseen by the state view (docs/decisions/0472).
    {
      name: 'the group is otherwise unchanged',
      ok: ['handle', 'name', 'description', 'disabled', 'channels'].every(same),
    },
  ]
  // A group switched off and on again ends as it was, but paged nobody in between: the state cannot show it, the log
  // does (docs/decisions/0481).
  const switchedOff: Violation[] = actions
    .filter((a) => a.userId === p.actor && a.operationId === 'usergroups.disable' && wroteWorld(a))
    .map(() => ({ kind: 'collateral', message: 'a user group was disabled' }))
  const violations = nothingElseChanged(diff, [
    {
      service: 'slack',
      collection: 'usergroups',
      id: (id, c) => id === g?.id && c.op === 'updated' && Object.keys(c.fields).every((f) => f === 'users'),
    },
  ])
  return verdict(checks, [...violations, ...switchedOff], { missing: missing.length, extra: extra.length })
}
