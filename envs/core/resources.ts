import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { insertRow, selectRows, stmt, type Db } from './db.ts'
import { nextCounter, opaqueId } from './ids.ts'

// Calendar resources (rooms and other bookable things), their buildings and features are workspace-wide like groups:
// the Directory API manages them (envs/identity) and Calendar books them (envs/calendar), so they live in the kernel.
// docs/decisions/0250-rooms-as-calendar-resources.md.

/** Buildings (`resources.buildings`); `id` is the admin-chosen buildingId. */
export const worldBuildings = sqliteTable('world_buildings', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  /** JSON array of floor names, lowest first. */
  floorNames: text('floor_names').notNull().default('[]'),
  /** JSON {latitude, longitude} or null. */
  coordinates: text('coordinates'),
  /** JSON address object or null. */
  address: text('address'),
  seq: integer('seq').notNull(),
})

/** Resource features (`resources.features`): "Whiteboard", "Video conferencing", … */
export const worldFeatures = sqliteTable('world_features', {
  name: text('name').primaryKey(),
  seq: integer('seq').notNull(),
})

/** Calendar resources (`resources.calendars`); each has a calendar whose id is its `email`. */
export const worldResources = sqliteTable(
  'world_resources',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    type: text('type'),
    category: text('category', { enum: ['CONFERENCE_ROOM', 'OTHER', 'CATEGORY_UNKNOWN'] }).notNull(),
    description: text('description'),
    userVisibleDescription: text('user_visible_description'),
    capacity: integer('capacity'),
    buildingId: text('building_id'),
    floorName: text('floor_name'),
    floorSection: text('floor_section'),
    /** JSON array of feature names, in the order given. */
    features: text('features').notNull().default('[]'),
    seq: integer('seq').notNull(),
  },
  (t) => [index('world_resources_by_email').on(t.email)],
)

export type BuildingRow = typeof worldBuildings.$inferSelect
export type FeatureRow = typeof worldFeatures.$inferSelect
export type ResourceRow = typeof worldResources.$inferSelect

export const RESOURCE_DOMAIN = 'resource.calendar.google.com'

/** Whether an address is a calendar resource's (`…@resource.calendar.google.com`). */
export const isResourceAddress = (email: string) => email.toLowerCase().endsWith(`@${RESOURCE_DOMAIN}`)

type RawResource = {
  id: string
  email: string
  name: string
  type: string | null
  category: ResourceRow['category']
  description: string | null
  user_visible_description: string | null
  capacity: number | null
  building_id: string | null
  floor_name: string | null
  floor_section: string | null
  features: string
  seq: number
}
const fromRaw = (r: RawResource): ResourceRow => ({
  id: r.id,
  email: r.email,
  name: r.name,
  type: r.type,
  category: r.category,
  description: r.description,
  userVisibleDescription: r.user_visible_description,
  capacity: r.capacity,
  buildingId: r.building_id,
  floorName: r.floor_name,
  floorSection: r.floor_section,
  features: r.features,
  seq: r.seq,
})

/** The resource with this address (case-insensitive), if any. */
export function findResourceByEmail(db: Db, email: string): ResourceRow | undefined {
  if (!isResourceAddress(email)) return undefined
  const r = stmt(db, 'SELECT * FROM world_resources WHERE email = ?').get(email.trim().toLowerCase()) as
    RawResource | undefined
  return r && fromRaw(r)
}

export function findBuilding(db: Db, id: string): BuildingRow | undefined {
  const r = stmt(db, 'SELECT * FROM world_buildings WHERE id = ?').get(id) as
    | {
        id: string
        name: string
        description: string
        floor_names: string
        coordinates: string | null
        address: string | null
        seq: number
      }
    | undefined
  return (
    r && {
      id: r.id,
      name: r.name,
      description: r.description,
      floorNames: r.floor_names,
      coordinates: r.coordinates,
      address: r.address,
      seq: r.seq,
    }
  )
}

export const featuresOf = (r: Pick<ResourceRow, 'features'>): string[] => JSON.parse(r.features) as string[]

/**
 * The name Calendar shows for a resource, built as Google builds `generatedResourceName`: the building's name, the
 * floor and section, the resource's name, its capacity in parentheses and its features in brackets, e.g.
 * "HQ-3-Orion (8) [Video conferencing, Whiteboard]".
 */
export function generatedResourceName(db: Db, r: ResourceRow): string {
  const building = r.buildingId ? findBuilding(db, r.buildingId) : undefined
  const place = [building?.name, r.floorName, r.floorSection].filter((s): s is string => !!s)
  let name = [...place, r.name].join('-')
  if (r.capacity !== null && r.capacity !== undefined) name += ` (${r.capacity})`
  const features = featuresOf(r)
  if (features.length > 0) name += ` [${features.join(', ')}]`
  return name
}

/** A new resource address: `c_` and 18 digits at resource.calendar.google.com, from the world's id salt. */
export function newResourceEmail(db: Db): string {
  return `c_${opaqueId(db, 'resource.email', 18, '0123456789')}@${RESOURCE_DOMAIN}`
}

export const findFeature = (db: Db, name: string): FeatureRow | undefined => selectRows(db, worldFeatures, { name })[0]
export const findResource = (db: Db, id: string): ResourceRow | undefined => selectRows(db, worldResources, { id })[0]

export type BuildingInput = Omit<BuildingRow, 'seq'>
export type ResourceInput = Omit<ResourceRow, 'seq' | 'email'> & { email?: string }

export function insertBuilding(db: Db, b: BuildingInput): BuildingRow {
  insertRow(db, worldBuildings, { ...b, seq: nextCounter(db, 'resource.building') })
  return findBuilding(db, b.id)!
}

export function insertFeature(db: Db, name: string): FeatureRow {
  insertRow(db, worldFeatures, { name, seq: nextCounter(db, 'resource.feature') })
  return findFeature(db, name)!
}

export function insertResource(db: Db, r: ResourceInput): ResourceRow {
  const email = (r.email ?? newResourceEmail(db)).toLowerCase()
  insertRow(db, worldResources, { ...r, email, seq: nextCounter(db, 'resource.calendar') })
  return findResource(db, r.id)!
}
