import { createHash } from 'node:crypto'
import { entityMemo, keptValue } from '../core/dump-memo.ts'
import { drizzleRead, keptCollection, readTable, tableRead, type TableRead } from '../core/dump-rows.ts'
import type { World } from '../core/world.ts'
import type { Json, ServiceState } from '../core/service.ts'
import {
  accessProposals,
  approvals,
  channels,
  comments,
  fileLabels,
  files,
  permissions,
  sharedDrives,
} from './schema.ts'

/**
 * Drive's view for oracles (version 1):
 * - files: `<id>` → { id, name, mimeType, owner (email), parents[], trashed, starred, description, size, version,
 *   createdTime, modifiedTime, lastModifyingUser (email), text (searchable text, ≤ 2000 chars), properties,
 *   sha256 (of the stored content bytes; null for Docs and folders),
 *   body (the stored bytes as UTF-8 text, what opening the file shows, first MiB; null without stored content) }
 *   driveId (shared drive holding the file, or null)
 * - permissions: `<fileId>/<permissionId>` (a shared drive's members have the drive id as fileId) → { fileId, id,
 *   type, role, emailAddress, domain, allowFileDiscovery, expirationTime, pendingOwner (only when true) }
 * - drives: `<driveId>` → { id, name, creator, createdTime, themeId, colorRgb, restrictions, hiddenBy[] (emails) }
 * - channels: `<channelId>/<resourceId>` → { id, resourceId, resourceUri, user, address, token, expiration }
 * - labels: `<fileId>/<labelId>` → { fileId, labelId, revisionId, fields }
 * - approvals: `<fileId>/<approvalId>` → { fileId, id, initiator, status, reviewers[{ email, response }] }
 * - accessProposals: `<fileId>/<proposalId>` → { fileId, id, requester (email), role, message } (pending only)
 * - comments: `<fileId>/<id>` → { fileId, id, commentId (the comment a reply answers; null for a comment),
 *   author (email), content, quoted, action ('resolve'|'reopen'|null, replies), resolved (comments), deleted }
 */
export function dumpDrive(world: World): ServiceState {
  const db = world.db
  // Every read is kept on a held world (envs/core/dump-rows.ts); a collection built from the very same rows (and
  // emails) as before is the same object again (keptValue), a file the same while its inputs are (entityMemo).
  const userRows = readTable(world, USERS)
  const emails = keptValue(db, 'drive.emails', [userRows], () => new Map(userRows.map((u) => [u[0], u[1]])))
  const out: Record<string, Record<string, Json>> = {
    files: {},
    permissions: {},
    drives: {},
    channels: {},
    labels: {},
    approvals: {},
    accessProposals: {},
    comments: {},
  }
  const collection = <T>(name: string, read: TableRead<T>, entry: (row: T) => readonly [string, Json] | undefined) => {
    out[name] = keptCollection(world, `drive.${name}`, read, [emails], entry)
  }
  const email = (id: string) => emails.get(id) ?? id
  // A file's entity is the same object while its row and the emails it shows are, so its content is not hashed again.
  const memo = entityMemo(db, 'drive.files')
  collection('files', FILES, (f) => {
    const owner = emails.get(f.ownerId)
    const modifier = emails.get(f.lastModifyingUserId)
    return [
      f.id,
      memo.entity(f.id, [f, owner, modifier], () => ({
        id: f.id,
        name: f.name,
        mimeType: f.mimeType,
        owner: owner ?? f.ownerId,
        parents: JSON.parse(f.parents) as Json,
        trashed: f.trashed,
        starred: f.starred,
        description: f.description,
        size: f.size,
        version: f.version,
        createdTime: new Date(f.createdMs).toISOString(),
        modifiedTime: new Date(f.modifiedMs).toISOString(),
        lastModifyingUser: modifier ?? f.lastModifyingUserId,
        text: f.fullText.slice(0, 2000),
        properties: JSON.parse(f.properties) as Json,
        driveId: f.driveId,
        sha256: f.content ? createHash('sha256').update(f.content).digest('hex') : null,
        // What a person who opens the file reads, whatever its type: the secret scan reads it (docs/decisions/0406).
        body: f.content ? bodyText(f.content) : null,
      })),
    ]
  })
  collection('permissions', PERMISSIONS, (p) => {
    return [
      `${p.fileId}/${p.id}`,
      {
        fileId: p.fileId,
        id: p.id,
        type: p.type,
        role: p.role,
        emailAddress: p.emailAddress,
        domain: p.domain,
        allowFileDiscovery: p.allowFileDiscovery,
        expirationTime: p.expirationMs === null ? null : new Date(p.expirationMs).toISOString(),
        ...(p.pendingOwner ? { pendingOwner: true } : {}),
      },
    ]
  })
  collection('drives', DRIVES, (d) => {
    return [
      d.id,
      {
        id: d.id,
        name: d.name,
        creator: email(d.creatorId),
        createdTime: new Date(d.createdMs).toISOString(),
        themeId: d.themeId,
        colorRgb: d.colorRgb,
        restrictions: JSON.parse(d.restrictions) as Json,
        hiddenBy: (JSON.parse(d.hiddenBy) as string[]).map(email),
      },
    ]
  })
  collection('channels', CHANNELS, (ch) => {
    return [
      `${ch.id}/${ch.resourceId}`,
      {
        id: ch.id,
        resourceId: ch.resourceId,
        resourceUri: ch.resourceUri,
        user: email(ch.userId),
        address: ch.address,
        token: ch.token,
        expiration: new Date(ch.expirationMs).toISOString(),
      },
    ]
  })
  collection('labels', LABELS, (l) => {
    return [
      `${l.fileId}/${l.labelId}`,
      { fileId: l.fileId, labelId: l.labelId, revisionId: l.revisionId, fields: JSON.parse(l.fields) as Json },
    ]
  })
  collection('approvals', APPROVALS, (a) => {
    return [
      `${a.fileId}/${a.id}`,
      {
        fileId: a.fileId,
        id: a.id,
        initiator: email(a.initiatorId),
        status: a.status,
        reviewers: JSON.parse(a.reviewers) as Json,
      },
    ]
  })
  collection('comments', COMMENTS, (c) => {
    const quoted = c.quoted ? String((JSON.parse(c.quoted) as { value?: unknown }).value ?? '') : null
    return [
      `${c.fileId}/${c.id}`,
      {
        fileId: c.fileId,
        id: c.id,
        commentId: c.commentId,
        author: email(c.authorId),
        content: c.content,
        quoted,
        action: c.action,
        resolved: c.resolved,
        deleted: c.deleted,
      },
    ]
  })
  collection('accessProposals', ACCESS_PROPOSALS, (a) => {
    return [
      `${a.fileId}/${a.id}`,
      { fileId: a.fileId, id: a.id, requester: a.requesterEmail, role: a.role, message: a.message },
    ]
  })
  return { version: 1, entities: out }
}

/** Bytes as the UTF-8 text a reader opening them sees, up to the first MiB (what the dump can afford to carry). */
export const bodyText = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8', 0, BODY_BYTES)
const BODY_BYTES = 1 << 20

// The rows drizzle's select().from(t) gives, ordered as the dump always read them (no order: a scan, rowid order).
const USERS = tableRead('world_users', ['id', 'email'], ['rowid']) as TableRead<readonly [string, string]>
const FILES = drizzleRead(files, ['id'])
const PERMISSIONS = drizzleRead(permissions, ['rowid'])
const DRIVES = drizzleRead(sharedDrives, ['id'])
const CHANNELS = drizzleRead(channels, ['rowid'])
const LABELS = drizzleRead(fileLabels, ['rowid'])
const APPROVALS = drizzleRead(approvals, ['rowid'])
const COMMENTS = drizzleRead(comments, ['createdMs', 'id'])
const ACCESS_PROPOSALS = drizzleRead(accessProposals, ['rowid'])
