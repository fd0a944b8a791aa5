import type { Fuzz, Op } from './engine.ts'
import { channelsSetup } from './ops-channels.ts'

// Slack user groups (docs/decisions/0448): create, update, disable, enable and set members, by either user;
// checked by usergroups.list (with and without disabled groups and users) and usergroups.users.list. Slack's
// method reference: a name "Must be unique among User Groups" (`name_already_exists`), a handle "Must be unique
// among channels, users and User Groups". A disabled group holds neither here (the fuzzer never asks whether it
// does: it enables a group only when nothing enabled has taken its name or handle meanwhile).

export type GroupModel = Record<string, { name: string; handle: string; users: string[]; disabled: boolean }>
const USERS = ['ann', 'ben'] as const
const NAMES = ['Design', 'Ops Team', 'On call', 'Sales']
/** Handles to draw: free ones, a channel's name, a user's and Slackbot's. */
const HANDLES = ['design', 'ops', 'oncall', 'sales-team', 'general', 'ann', 'slackbot']
const groups = (f: Fuzz) => f.model.groups
const error = (r: { ok: boolean; data: Record<string, unknown> }) => (r.ok ? 'ok' : String(r.data.error))
/** The handle Slack derives from a name when none is given. */
const derived = (name: string) => name.toLowerCase().replace(/[^a-z0-9._-]/g, '-')

/** What a create or update with this name and handle answers, for group `self` (none for a create). */
function clash(f: Fuzz, name: string | undefined, handle: string | undefined, self?: string): string | undefined {
  const live = Object.entries(groups(f)).filter(([id, g]) => id !== self && !g.disabled)
  if (name !== undefined && live.some(([, g]) => g.name === name)) return 'name_already_exists'
  if (handle === undefined) return undefined
  const channels = ['general', ...Object.values(f.model.channels).map((c) => c.name)]
  if (live.some(([, g]) => g.handle === handle) || [...USERS, 'slackbot'].includes(handle) || channels.includes(handle))
    return 'name_already_exists'
  return undefined
}

async function create(f: Fuzz): Promise<void> {
  const u = f.rng.pick(USERS)
  const name = f.rng.pick(NAMES)
  const given = f.rng.chance(0.6) ? f.rng.pick(HANDLES) : undefined
  const handle = given ?? derived(name)
  const r = await f.slackCall(`${u} usergroups.create`, true, u, 'usergroups.create', {
    name,
    ...(given ? { handle: given } : {}),
  })
  f.equal(error(r), clash(f, name, handle) ?? 'ok', `create ${name} @${handle}`)
  if (!r.ok) return
  const g = r.data.usergroup as { id: string; name: string; handle: string; user_count: number }
  f.equal([g.name, g.handle, g.user_count], [name, handle, 0], 'created group')
  groups(f)[g.id] = { name, handle, users: [], disabled: false }
}

function pick(f: Fuzz): [string, GroupModel[string]] | undefined {
  const all = Object.entries(groups(f))
  return all.length ? f.rng.pick(all) : undefined
}

async function update(f: Fuzz): Promise<void> {
  const got = pick(f)
  if (!got) return create(f)
  const [id, g] = got
  const u = f.rng.pick(USERS)
  const name = f.rng.chance(0.6) ? f.rng.pick(NAMES) : undefined
  const handle = f.rng.chance(0.5) ? f.rng.pick(HANDLES) : undefined
  if (name === undefined && handle === undefined) return
  const r = await f.slackCall(`${u} usergroups.update`, true, u, 'usergroups.update', {
    usergroup: id,
    ...(name !== undefined ? { name } : {}),
    ...(handle !== undefined ? { handle } : {}),
  })
  f.equal(error(r), clash(f, name, handle, id) ?? 'ok', `update ${id} to ${name} @${handle}`)
  if (!r.ok) return
  if (name !== undefined) g.name = name
  if (handle !== undefined) g.handle = handle
  const w = r.data.usergroup as { name: string; handle: string }
  f.equal([w.name, w.handle], [g.name, g.handle], 'updated group')
}

async function toggle(f: Fuzz): Promise<void> {
  const got = pick(f)
  if (!got) return create(f)
  const [id, g] = got
  const u = f.rng.pick(USERS)
  const disable = f.rng.chance(0.5)
  // Whether an enabled group may hold a disabled one's name or handle is not documented: such an enable is not made.
  if (!disable && g.disabled && clash(f, g.name, g.handle, id)) return
  const method = disable ? 'usergroups.disable' : 'usergroups.enable'
  const r = await f.slackCall(`${u} ${method}`, true, u, method, { usergroup: id })
  const want = disable === g.disabled ? `usergroup_already_${disable ? 'disabled' : 'enabled'}` : 'ok'
  f.equal(error(r), want, `${method} of ${id}`)
  if (r.ok) g.disabled = disable
}

async function members(f: Fuzz): Promise<void> {
  const got = pick(f)
  if (!got) return create(f)
  const [id, g] = got
  const u = f.rng.pick(USERS)
  const users = f.rng.pick([['ann'], ['ben'], ['ann', 'ben'], ['ben', 'ann', 'ben']])
  const r = await f.slackCall(`${u} usergroups.users.update`, true, u, 'usergroups.users.update', {
    usergroup: id,
    users: users.map((x) => f.model.slack.users[x]).join(','),
  })
  f.check(r.ok, () => `usergroups.users.update: ${JSON.stringify(r.data)}`)
  g.users = [...new Set(users)].sort()
}

async function check(f: Fuzz): Promise<void> {
  const u = f.rng.pick(USERS)
  const disabled = f.rng.chance(0.5)
  const r = await f.slackCall(`${u} usergroups.list`, false, u, 'usergroups.list', {
    include_disabled: disabled,
    include_users: true,
  })
  f.check(r.ok, () => `usergroups.list: ${JSON.stringify(r.data)}`)
  const name = (id: string) => Object.entries(f.model.slack.users).find(([, s]) => s === id)?.[0] ?? id
  type Wire = { id: string; name: string; handle: string; users: string[]; user_count: number; date_delete: number }
  const seen = (r.data.usergroups as Wire[]).map((g) => ({
    id: g.id,
    name: g.name,
    handle: g.handle,
    users: g.users.map(name).sort(),
    count: g.user_count,
    disabled: g.date_delete !== 0,
  }))
  const want = Object.entries(groups(f))
    .filter(([, g]) => disabled || !g.disabled)
    .map(([id, g]) => ({ id, ...g, count: g.users.length }))
    .map(({ id, name, handle, users, count, disabled }) => ({ id, name, handle, users, count, disabled }))
  const order = (xs: { id: string }[]) => [...xs].sort((a, b) => a.id.localeCompare(b.id))
  f.equal(order(seen), order(want), `${u}'s usergroups.list${disabled ? ' with disabled' : ''}`)
  const got = pick(f)
  if (!got) return
  const [id, g] = got
  const l = await f.slackCall(`${u} usergroups.users.list`, false, u, 'usergroups.users.list', { usergroup: id })
  if (g.disabled) return f.equal(error(l), 'no_such_subteam', 'users of a disabled group without include_disabled')
  f.check(l.ok, () => `usergroups.users.list: ${JSON.stringify(l.data)}`)
  f.equal((l.data.users as string[]).map(name).sort(), g.users, `members of ${id}`)
}

export async function groupsSetup(f: Fuzz): Promise<void> {
  await channelsSetup(f)
}

export const groupOps: Op[] = [
  { name: 'groups.create', weight: 3, run: create },
  { name: 'groups.update', weight: 3, run: update },
  { name: 'groups.toggle', weight: 2, run: toggle },
  { name: 'groups.members', weight: 2, run: members },
  { name: 'groups.check', weight: 3, run: check },
]
