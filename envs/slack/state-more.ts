import { stmt, type Db } from '../core/db.ts'
import { getMeta } from '../core/clock.ts'
import type { Json } from '../core/service.ts'
import { parseJson } from './store/core.ts'
import { teamName } from './store/admin.ts'
import { customEmoji } from './store/emoji.ts'

type Row = { [k: string]: string | number | null }
const rows = (db: Db, sql: string, ...p: unknown[]) => stmt(db, sql).all(...p) as Row[]
const j = (o: Record<string, unknown>) => o as Json
const access = (db: Db, id: unknown) =>
  Object.fromEntries(
    rows(db, 'SELECT entity_id, level FROM slack_access WHERE object_id = ? ORDER BY rowid', id).map((a) => [
      String(a.entity_id),
      a.level === 'channel_canvas' ? 'write' : a.level,
    ]),
  )

/** Collections of the admin and platform features (see the shape comment in state.ts). */
export function dumpMore(db: Db): Record<string, Record<string, Json>> {
  const out: Record<string, Record<string, Json>> = {
    team: {
      settings: j({
        name: teamName(db),
        description: getMeta(db, 'slack_team_description') ?? '',
        discoverability: getMeta(db, 'slack_team_discoverability') ?? 'invite_only',
        icon: getMeta(db, 'slack_team_icon') ?? null,
        defaultChannels: parseJson<string[] | null>(getMeta(db, 'slack_team_default_channels'), null),
      }),
    },
    emoji: customEmoji(db),
    invites: {},
    roleAssignments: {},
    sessions: {},
    canvases: {},
    lists: {},
    calls: {},
    views: {},
    remoteFiles: {},
    assistantThreads: {},
    unfurls: {},
    apps: {},
    appRequests: {},
    appResolutions: {},
    barriers: {},
    authPolicy: {},
    listExports: {},
  }
  for (const r of rows(db, 'SELECT * FROM slack_invites ORDER BY rowid'))
    out.invites![String(r.id)] = j({
      id: r.id,
      kind: r.kind,
      email: r.email,
      realName: r.real_name,
      channels: parseJson<string[]>(String(r.channels), []),
      message: r.message,
      guest: r.guest,
      requester: r.requester,
      status: r.status,
      reviewer: r.reviewer,
    })
  for (const r of rows(db, 'SELECT * FROM slack_role_assignments ORDER BY rowid'))
    out.roleAssignments![`${r.role_id}/${r.entity_id}/${r.user_id}`] = j({
      roleId: r.role_id,
      entityId: r.entity_id,
      userId: r.user_id,
    })
  for (const r of rows(db, 'SELECT * FROM slack_sessions ORDER BY id'))
    out.sessions![String(r.id)] = j({ id: r.id, user: r.user_id, client: r.client, active: r.revoked === 0 })
  for (const r of rows(db, 'SELECT * FROM slack_canvases ORDER BY rowid')) {
    const sections = rows(
      db,
      'SELECT id, kind, markdown FROM slack_canvas_sections WHERE canvas_id = ? ORDER BY pos',
      r.id,
    )
    out.canvases![String(r.id)] = j({
      id: r.id,
      title: r.title,
      owner: r.owner,
      channel: r.channel_id,
      markdown: sections.map((s) => s.markdown).join('\n'),
      sections: sections.map((s) => j({ id: s.id, kind: s.kind, markdown: s.markdown })),
      access: access(db, r.id),
    })
  }
  for (const r of rows(db, 'SELECT * FROM slack_lists ORDER BY rowid')) {
    const items = rows(db, 'SELECT * FROM slack_list_items WHERE list_id = ? ORDER BY rowid', r.id).map((i) =>
      j({ id: i.id, parentId: i.parent_id, fields: parseJson<Json>(String(i.fields), {}), createdBy: i.created_by }),
    )
    out.lists![String(r.id)] = j({
      id: r.id,
      name: r.name,
      description: r.description,
      todoMode: r.todo_mode === 1,
      owner: r.owner,
      columns: parseJson<Json>(String(r.columns), []),
      items,
      access: access(db, r.id),
    })
  }
  for (const r of rows(db, 'SELECT * FROM slack_calls ORDER BY rowid'))
    out.calls![String(r.id)] = j({
      id: r.id,
      externalUniqueId: r.external_unique_id,
      title: r.title,
      joinUrl: r.join_url,
      createdBy: r.created_by,
      dateStart: r.date_start,
      dateEnd: r.date_end,
      participants: parseJson<Json>(String(r.participants), []),
      allParticipants: parseJson<Json>(String(r.all_participants), []),
    })
  for (const r of rows(db, 'SELECT * FROM slack_views ORDER BY rowid'))
    out.views![String(r.id)] = j({
      id: r.id,
      type: r.type,
      user: r.user_id,
      app: r.app_user,
      externalId: r.external_id,
      rootViewId: r.root_view_id,
      previousViewId: r.previous_view_id,
      hash: r.hash,
      view: parseJson<Json>(String(r.view), {}),
    })
  for (const r of rows(db, 'SELECT * FROM slack_remote_files ORDER BY rowid'))
    out.remoteFiles![String(r.id)] = j({
      id: r.id,
      externalId: r.external_id,
      title: r.title,
      filetype: r.filetype,
      externalUrl: r.external_url,
      channels: parseJson<string[]>(String(r.channels), []),
      app: r.app_user,
    })
  for (const r of rows(db, 'SELECT * FROM slack_assistant_threads ORDER BY rowid'))
    out.assistantThreads![`${r.channel_id}/${r.thread_ts}`] = j({
      channel: r.channel_id,
      threadTs: r.thread_ts,
      status: r.status,
      title: r.title,
      prompts: parseJson<Json>(String(r.prompts), []),
    })
  for (const r of rows(db, 'SELECT * FROM slack_unfurls ORDER BY rowid'))
    out.unfurls![`${r.channel_id}/${r.ts}/${r.url}`] = j({
      channel: r.channel_id,
      ts: r.ts,
      url: r.url,
      attachment: parseJson<Json>(String(r.attachment), {}),
    })
  for (const r of rows(db, 'SELECT * FROM slack_apps ORDER BY rowid'))
    out.apps![String(r.id)] = j({
      id: r.id,
      creator: r.creator,
      botUser: r.bot_user,
      manifest: parseJson<Json>(String(r.manifest), {}),
    })
  for (const r of rows(db, 'SELECT * FROM slack_app_requests ORDER BY rowid'))
    out.appRequests![String(r.id)] = j({
      id: r.id,
      appId: r.app_id,
      appName: r.app_name,
      requester: r.requester,
      message: r.message,
      scopes: parseJson<Json>(String(r.scopes), []),
      status: r.status,
    })
  for (const r of rows(db, 'SELECT * FROM slack_app_resolutions ORDER BY rowid'))
    out.appResolutions![String(r.app_id)] = j({
      appId: r.app_id,
      appName: r.app_name,
      status: r.status,
      resolvedBy: r.resolved_by,
    })
  for (const r of rows(db, 'SELECT * FROM slack_barriers ORDER BY rowid'))
    out.barriers![String(r.id)] = j({
      id: r.id,
      primaryUsergroup: r.primary_group,
      barrieredFrom: parseJson<Json>(String(r.barriered), []),
      subjects: parseJson<Json>(String(r.subjects), []),
    })
  for (const r of rows(db, 'SELECT * FROM slack_auth_policy ORDER BY rowid'))
    out.authPolicy![`${r.policy}/${r.entity_id}`] = j({
      policy: r.policy,
      entityId: r.entity_id,
      entityType: r.entity_type,
    })
  for (const r of rows(db, 'SELECT job_id, list_id, user_id FROM slack_list_exports ORDER BY rowid'))
    out.listExports![String(r.job_id)] = j({ jobId: r.job_id, listId: r.list_id, user: r.user_id })
  return out
}
