import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { selectRows, type Db } from '../../core/db.ts'
import {
  featuresOf,
  findBuilding,
  findFeature,
  findResource,
  generatedResourceName,
  worldBuildings,
  worldFeatures,
  worldResources,
  type BuildingRow,
  type ResourceRow,
} from '../../core/resources.ts'

const etag = (v: unknown) => `"${createHash('sha256').update(JSON.stringify(v)).digest('base64url').slice(0, 27)}"`
const FEATURE_KIND = 'admin#directory#resources#features#Feature'

// Read by every dump of Identity (a task's start state): without drizzle's per-call query building.
export const listBuildings = (db: Db) => selectRows(db, worldBuildings, {}, { orderBy: ['seq'] })
export const listFeatures = (db: Db) => selectRows(db, worldFeatures, {}, { orderBy: ['name'] })
export const listResources = (db: Db) => selectRows(db, worldResources, {}, { orderBy: ['seq'] })
export { findBuilding, findFeature, findResource }
export { insertBuilding, insertFeature, insertResource } from '../../core/resources.ts'

export function featureResource(name: string) {
  const body = { kind: FEATURE_KIND, name }
  return { ...body, etags: etag(body) }
}

export function buildingResource(b: BuildingRow) {
  const body = {
    kind: 'admin#directory#resources#buildings#Building',
    buildingId: b.id,
    buildingName: b.name,
    description: b.description,
    floorNames: JSON.parse(b.floorNames) as string[],
    ...(b.coordinates ? { coordinates: JSON.parse(b.coordinates) as unknown } : {}),
    ...(b.address ? { address: JSON.parse(b.address) as unknown } : {}),
  }
  return { ...body, etags: etag(body) }
}

export function calendarResource(db: Db, r: ResourceRow) {
  const opt = <K extends string, V>(k: K, v: V | null) => (v === null || v === undefined ? {} : { [k]: v })
  const features = featuresOf(r)
  const body = {
    kind: 'admin#directory#resources#calendars#CalendarResource',
    resourceId: r.id,
    resourceName: r.name,
    ...opt('resourceType', r.type),
    ...opt('resourceDescription', r.description),
    resourceEmail: r.email,
    resourceCategory: r.category,
    ...opt('userVisibleDescription', r.userVisibleDescription),
    generatedResourceName: generatedResourceName(db, r),
    ...opt('capacity', r.capacity),
    ...opt('buildingId', r.buildingId),
    ...opt('floorName', r.floorName),
    ...opt('floorSection', r.floorSection),
    ...(features.length > 0 ? { featureInstances: features.map((name) => ({ feature: featureResource(name) })) } : {}),
  }
  return { ...body, etags: etag(body) }
}

/** Renames a feature and every resource's instance of it. */
export function renameFeature(db: Db, from: string, to: string): void {
  db.update(worldFeatures).set({ name: to }).where(eq(worldFeatures.name, from)).run()
  for (const r of listResources(db)) {
    const fs = featuresOf(r)
    if (!fs.includes(from)) continue
    const next = fs.map((f) => (f === from ? to : f))
    db.update(worldResources)
      .set({ features: JSON.stringify(next) })
      .where(eq(worldResources.id, r.id))
      .run()
  }
}
