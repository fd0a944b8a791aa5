import type { WorldEntry, WorldManager } from '../../worlds.ts'
import { nowMs } from '../../../envs/core/clock.ts'
import { listUsers } from '../../../envs/core/users.ts'
import { h, href, postForm, type Raw } from '../html.ts'

export const SERVICES = ['gmail', 'calendar', 'drive', 'docs', 'slack'] as const

const field = (name: string, placeholder: string, value = '') =>
  h`<input name="${name}" placeholder="${placeholder}" value="${value}" size="14">`

/** Every world, with the forms that create one from a seed. */
export function worldsTable(worlds: WorldManager, episodeIds: Set<string>): Raw {
  const rows = worlds.list().filter((e) => !episodeIds.has(e.id))
  return h`<table class="worlds"><tr><th>World</th><th>Seed</th><th>Clock</th><th>Snapshots</th></tr>
  ${rows.map(
    (e) => h`<tr><td><a href="${href('worlds', e.id)}">${e.id}</a></td><td>${e.seedName} #${e.seedValue}</td>
    <td>${new Date(nowMs(e.world.db)).toISOString()}</td><td>${[...e.snapshots.keys()].join(', ') || '—'}</td></tr>`,
  )}</table>
  ${postForm('/ui/worlds', 'Create world', [
    field('seed', 'seed (demo)', 'demo'),
    field('seedValue', 'seed value', '1'),
    field('id', 'id (optional)'),
  ])}`
}

/** One world: clock, users (with a link into each service as that user), lifecycle forms, recent agent calls. */
export function worldView(entry: WorldEntry): Raw {
  const users = listUsers(entry.world.db)
  const base = href('worlds', entry.id)
  const recent = entry.world.db.$client
    .prepare(
      `SELECT seq, at_ms AS atMs, user_id AS userId, method, path, status
    FROM world_action_log ORDER BY seq DESC LIMIT 50`,
    )
    .all() as { seq: number; atMs: number; userId: string | null; method: string; path: string; status: number }[]
  return h`<h1>World ${entry.id}</h1>
  <div class="card"><p>Seed <b>${entry.seedName}</b> #${entry.seedValue} · clock <b class="clock">${new Date(
    nowMs(entry.world.db),
  ).toISOString()}</b></p>
    ${postForm(`${base}/fork`, 'Fork', field('id', 'new id (optional)'))}
    ${postForm(`${base}/snapshots`, 'Snapshot', field('name', 'name', 'before'))}
    ${postForm(
      `${base}/restore`,
      'Restore',
      h`<select
      name="name"><option>baseline</option>${[...entry.snapshots.keys()].map(
        (n) => h`<option>${n}</option>`,
      )}</select>`,
    )}
    ${postForm(
      `${base}/clock`,
      'Advance clock',
      h`<select name="advance"><option value="3600000">1 hour</option>
      <option value="86400000">1 day</option><option value="604800000">1 week</option></select>`,
    )}</div>
  <h2>Users</h2><table class="users"><tr><th>User</th><th>Email</th><th>Zone</th><th>Open as this user</th></tr>
  ${users.map(
    (u) => h`<tr><td>${u.name}</td><td>${u.email}</td><td>${u.timeZone}</td>
    <td>${SERVICES.map((s) => h`<a href="${href('worlds', entry.id, 'u', u.id, s)}">${s}</a> `)}</td></tr>`,
  )}</table>
  <h2>Recent agent calls</h2>${
    recent.length
      ? h`<table
    class="actions"><tr><th>#</th><th>At</th><th>User</th><th>Call</th><th>Status</th></tr>
  ${recent.map(
    (a) => h`<tr><td>${a.seq}</td><td>${new Date(a.atMs).toISOString()}</td><td>${a.userId ?? '—'}</td>
    <td><code>${a.method} ${a.path}</code></td><td>${a.status}</td></tr>`,
  )}</table>`
      : h`<p class="muted">none</p>`
  }`
}
