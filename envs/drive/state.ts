import type { World } from '../core/world.ts'
import type { Json, ServiceState } from '../core/service.ts'
import { files, permissions } from './schema.ts'

/**
 * Drive's view for oracles (version 1):
 * - files: `<id>` → { id, name, mimeType, owner (email), parents[], trashed, starred, description, size, version,
 *   createdTime, modifiedTime, lastModifyingUser (email), text (searchable text, ≤ 2000 chars), properties }
 * - permissions: `<fileId>/<permissionId>` → { fileId, id, type, role, emailAddress, domain, allowFileDiscovery, expirationTime }
 */
export function dumpDrive(world: World): ServiceState {
  const db = world.db
  const emails = new Map((db.$client.prepare('SELECT id, email FROM world_users').all() as { id: string; email: string }[]).map((u) => [u.id, u.email]))
  const out: Record<string, Record<string, Json>> = { files: {}, permissions: {} }
  for (const f of db.select().from(files).orderBy(files.id).all()) {
    out.files![f.id] = {
      id: f.id, name: f.name, mimeType: f.mimeType, owner: emails.get(f.ownerId) ?? f.ownerId, parents: JSON.parse(f.parents) as Json,
      trashed: f.trashed, starred: f.starred, description: f.description, size: f.size, version: f.version,
      createdTime: new Date(f.createdMs).toISOString(), modifiedTime: new Date(f.modifiedMs).toISOString(),
      lastModifyingUser: emails.get(f.lastModifyingUserId) ?? f.lastModifyingUserId, text: f.fullText.slice(0, 2000), properties: JSON.parse(f.properties) as Json,
    }
  }
  for (const p of db.select().from(permissions).all()) {
    out.permissions![`${p.fileId}/${p.id}`] = { fileId: p.fileId, id: p.id, type: p.type, role: p.role, emailAddress: p.emailAddress, domain: p.domain, allowFileDiscovery: p.allowFileDiscovery, expirationTime: p.expirationMs === null ? null : new Date(p.expirationMs).toISOString() }
  }
  return { version: 1, entities: out }
}
