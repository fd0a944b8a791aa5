import { createHash } from 'node:crypto'
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
  const emails = new Map((db.$client.prepare('SELECT id, email FROM world_users').all() as { id: string; email: string }[]).map((u) => [u.id, u.email]))
  const out: Record<string, Record<string, Json>> = { files: {}, permissions: {}, drives: {}, channels: {}, labels: {}, approvals: {}, accessProposals: {}, comments: {} }
  for (const f of db.select().from(files).orderBy(files.id).all()) {
    out.files![f.id] = {
      id: f.id, name: f.name, mimeType: f.mimeType, owner: emails.get(f.ownerId) ?? f.ownerId, parents: JSON.parse(f.parents) as Json,
      trashed: f.trashed, starred: f.starred, description: f.description, size: f.size, version: f.version,
      createdTime: new Date(f.createdMs).toISOString(), modifiedTime: new Date(f.modifiedMs).toISOString(),
      lastModifyingUser: emails.get(f.lastModifyingUserId) ?? f.lastModifyingUserId, text: f.fullText.slice(0, 2000), properties: JSON.parse(f.properties) as Json,
      driveId: f.driveId, sha256: f.content ? createHash('sha256').update(f.content).digest('hex') : null,
    }
  }
  for (const p of db.select().from(permissions).all()) {
    out.permissions![`${p.fileId}/${p.id}`] = { fileId: p.fileId, id: p.id, type: p.type, role: p.role, emailAddress: p.emailAddress, domain: p.domain, allowFileDiscovery: p.allowFileDiscovery, expirationTime: p.expirationMs === null ? null : new Date(p.expirationMs).toISOString() }
  }
  for (const d of db.select().from(sharedDrives).orderBy(sharedDrives.id).all()) {
    out.drives![d.id] = { id: d.id, name: d.name, creator: emails.get(d.creatorId) ?? d.creatorId, createdTime: new Date(d.createdMs).toISOString(), themeId: d.themeId, colorRgb: d.colorRgb, restrictions: JSON.parse(d.restrictions) as Json, hiddenBy: (JSON.parse(d.hiddenBy) as string[]).map((u) => emails.get(u) ?? u) }
  }
  for (const ch of db.select().from(channels).all()) {
    out.channels![`${ch.id}/${ch.resourceId}`] = { id: ch.id, resourceId: ch.resourceId, resourceUri: ch.resourceUri, user: emails.get(ch.userId) ?? ch.userId, address: ch.address, token: ch.token, expiration: new Date(ch.expirationMs).toISOString() }
  }
  for (const l of db.select().from(fileLabels).all()) {
    out.labels![`${l.fileId}/${l.labelId}`] = { fileId: l.fileId, labelId: l.labelId, revisionId: l.revisionId, fields: JSON.parse(l.fields) as Json }
  }
  for (const a of db.select().from(approvals).all()) {
    out.approvals![`${a.fileId}/${a.id}`] = { fileId: a.fileId, id: a.id, initiator: emails.get(a.initiatorId) ?? a.initiatorId, status: a.status, reviewers: JSON.parse(a.reviewers) as Json }
  }
  for (const c of db.select().from(comments).orderBy(comments.createdMs, comments.id).all()) {
    const quoted = c.quoted ? String((JSON.parse(c.quoted) as { value?: unknown }).value ?? '') : null
    out.comments![`${c.fileId}/${c.id}`] = {
      fileId: c.fileId, id: c.id, commentId: c.commentId, author: emails.get(c.authorId) ?? c.authorId, content: c.content,
      quoted, action: c.action, resolved: c.resolved, deleted: c.deleted,
    }
  }
  for (const a of db.select().from(accessProposals).all()) {
    out.accessProposals![`${a.fileId}/${a.id}`] = { fileId: a.fileId, id: a.id, requester: a.requesterEmail, role: a.role, message: a.message }
  }
  return { version: 1, entities: out }
}
