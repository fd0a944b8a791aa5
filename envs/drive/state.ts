import { createHash } from 'node:crypto'
import { selectRows, stmt } from '../core/db.ts'
import { entityMemo } from '../core/dump-memo.ts'
import type { World } from '../core/world.ts'
import type { Json, ServiceState } from '../core/service.ts'
import { accessProposals, approvals, channels, comments, fileLabels, files, permissions, sharedDrives } from './schema.ts'

/**
 * Drive's view for oracles (version 1):
 * - files: `<id>` → { id, name, mimeType, owner (email), parents[], trashed, starred, description, size, version,
 *   createdTime, modifiedTime, lastModifyingUser (email), text (searchable text, ≤ 2000 chars), properties,
 *   sha256 (of the stored content bytes; null for Docs and folders) }
 *   driveId (shared drive holding the file, or null)
 * - permissions: `<fileId>/<permissionId>` (a shared drive's members have the drive id as fileId) → { fileId, id, type, role, emailAddress, domain, allowFileDiscovery, expirationTime }
 * - drives: `<driveId>` → { id, name, creator, createdTime, themeId, colorRgb, restrictions, hiddenBy[] (emails) }
 * - channels: `<channelId>/<resourceId>` → { id, resourceId, resourceUri, user, address, token, expiration }
 * - labels: `<fileId>/<labelId>` → { fileId, labelId, revisionId, fields }
 * - approvals: `<fileId>/<approvalId>` → { fileId, id, initiator, status, reviewers[{ email, response }] }
 * - accessProposals: `<fileId>/<proposalId>` → { fileId, id, requester (email), role, message } (pending only)
 * - comments: `<fileId>/<id>` → { fileId, id, commentId (the comment a reply answers; null for a comment), author (email),
 *   content, quoted, action ('resolve'|'reopen'|null, replies), resolved (comments), deleted }
 */
export function dumpDrive(world: World): ServiceState {
  const db = world.db
  const users = stmt(db, 'SELECT id, email FROM world_users').all() as { id: string; email: string }[]
  const emails = new Map(users.map((u) => [u.id, u.email]))
  const out: Record<string, Record<string, Json>> = { files: {}, permissions: {}, drives: {}, channels: {}, labels: {}, approvals: {}, accessProposals: {}, comments: {} }
  // A file's entity is the same object while its row and the emails it shows are (envs/core/dump-memo.ts), so its
  // content is not hashed again.
  const memo = entityMemo(db, 'drive.files')
  for (const f of selectRows(db, files, {}, { orderBy: ['id'] })) {
    const owner = emails.get(f.ownerId)
    const modifier = emails.get(f.lastModifyingUserId)
    const inputs: unknown[] = Object.values(f)
    inputs.push(owner, modifier)
    out.files![f.id] = memo.entity(f.id, inputs, () => ({
      id: f.id, name: f.name, mimeType: f.mimeType, owner: owner ?? f.ownerId, parents: JSON.parse(f.parents) as Json,
      trashed: f.trashed, starred: f.starred, description: f.description, size: f.size, version: f.version,
      createdTime: new Date(f.createdMs).toISOString(), modifiedTime: new Date(f.modifiedMs).toISOString(),
      lastModifyingUser: modifier ?? f.lastModifyingUserId, text: f.fullText.slice(0, 2000), properties: JSON.parse(f.properties) as Json,
      driveId: f.driveId, sha256: f.content ? createHash('sha256').update(f.content).digest('hex') : null,
    }))
  }
  for (const p of selectRows(db, permissions, {})) {
    out.permissions![`${p.fileId}/${p.id}`] = { fileId: p.fileId, id: p.id, type: p.type, role: p.role, emailAddress: p.emailAddress, domain: p.domain, allowFileDiscovery: p.allowFileDiscovery, expirationTime: p.expirationMs === null ? null : new Date(p.expirationMs).toISOString() }
  }
  for (const d of selectRows(db, sharedDrives, {}, { orderBy: ['id'] })) {
    out.drives![d.id] = { id: d.id, name: d.name, creator: emails.get(d.creatorId) ?? d.creatorId, createdTime: new Date(d.createdMs).toISOString(), themeId: d.themeId, colorRgb: d.colorRgb, restrictions: JSON.parse(d.restrictions) as Json, hiddenBy: (JSON.parse(d.hiddenBy) as string[]).map((u) => emails.get(u) ?? u) }
  }
  for (const ch of selectRows(db, channels, {})) {
    out.channels![`${ch.id}/${ch.resourceId}`] = { id: ch.id, resourceId: ch.resourceId, resourceUri: ch.resourceUri, user: emails.get(ch.userId) ?? ch.userId, address: ch.address, token: ch.token, expiration: new Date(ch.expirationMs).toISOString() }
  }
  for (const l of selectRows(db, fileLabels, {})) {
    out.labels![`${l.fileId}/${l.labelId}`] = { fileId: l.fileId, labelId: l.labelId, revisionId: l.revisionId, fields: JSON.parse(l.fields) as Json }
  }
  for (const a of selectRows(db, approvals, {})) {
    out.approvals![`${a.fileId}/${a.id}`] = { fileId: a.fileId, id: a.id, initiator: emails.get(a.initiatorId) ?? a.initiatorId, status: a.status, reviewers: JSON.parse(a.reviewers) as Json }
  }
  for (const c of selectRows(db, comments, {}, { orderBy: ['createdMs', 'id'] })) {
    const quoted = c.quoted ? String((JSON.parse(c.quoted) as { value?: unknown }).value ?? '') : null
    out.comments![`${c.fileId}/${c.id}`] = {
      fileId: c.fileId, id: c.id, commentId: c.commentId, author: emails.get(c.authorId) ?? c.authorId, content: c.content,
      quoted, action: c.action, resolved: c.resolved, deleted: c.deleted,
    }
  }
  for (const a of selectRows(db, accessProposals, {})) {
    out.accessProposals![`${a.fileId}/${a.id}`] = { fileId: a.fileId, id: a.id, requester: a.requesterEmail, role: a.role, message: a.message }
  }
  return { version: 1, entities: out }
}
