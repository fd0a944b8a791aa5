import { eq, or } from 'drizzle-orm'
import { getMeta } from '../../core/clock.ts'
import { selectRows, type Db } from '../../core/db.ts'
import { identityDomains } from '../schema.ts'

// The customer's domains beyond its primary one (world_meta `domain`): secondary domains and domain aliases that an
// administrator added (Directory `domains.insert`, `domainAliases.insert`). Google verifies a new domain by a DNS
// record or a file on its web site, which cannot happen here: they stay unverified, and no address in them belongs
// to the workspace (users, groups and aliases stay in the primary domain; internal/external checks are unchanged).

export type DomainRow = typeof identityDomains.$inferSelect

/** Secondary domains (parent null) and domain aliases, by name. */
export const addedDomains = (db: Db): DomainRow[] =>
  selectRows(db, identityDomains, {}).sort((a, b) => a.name.localeCompare(b.name))

export const primaryDomain = (db: Db) => (getMeta(db, 'domain') ?? '').toLowerCase()

export const findDomain = (db: Db, name: string): DomainRow | undefined =>
  selectRows(db, identityDomains, { name: name.toLowerCase() })[0]

/** Whether a name is already the primary domain, a secondary domain or a domain alias. */
export const domainTaken = (db: Db, name: string) =>
  name.toLowerCase() === primaryDomain(db) || findDomain(db, name) !== undefined

export function insertDomain(db: Db, row: DomainRow) {
  db.insert(identityDomains)
    .values({ ...row, name: row.name.toLowerCase() })
    .run()
}

/** Removes a secondary domain (with its aliases) or a domain alias. */
export function deleteDomain(db: Db, name: string) {
  const n = name.toLowerCase()
  db.delete(identityDomains)
    .where(or(eq(identityDomains.name, n), eq(identityDomains.parent, n)))
    .run()
}

/**
 * A host name Google could take as a domain: dot-separated labels of letters, digits and inner hyphens, a final
 * label of letters, at most 253 characters.
 */
export const isDomainName = (name: string) =>
  name.length <= 253 && /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(name)

/** The dump's `domains` (shape in ../state.ts): what was added beside the primary domain. */
export function domainEntities(db: Db) {
  return Object.fromEntries(
    addedDomains(db).map((d) => [d.name, { name: d.name, kind: d.parent ? 'alias' : 'secondary', parent: d.parent }]),
  )
}
