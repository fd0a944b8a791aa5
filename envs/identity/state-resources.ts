import type { Json } from '../core/service.ts'
import type { World } from '../core/world.ts'
import { selectRows } from '../core/db.ts'
import { findUserById } from '../core/users.ts'
import { featuresOf, generatedResourceName } from '../core/resources.ts'
import { identityRoles } from './schema.ts'
import { listBuildings, listFeatures, listResources } from './store/resources.ts'

/** The dump's delegated roles, buildings, features and rooms (shape in ./state.ts). */
export function resourceEntities(world: World): Record<string, Record<string, Json>> {
  const db = world.db
  const roles = selectRows(db, identityRoles, {}).sort((a, b) => a.userId.localeCompare(b.userId))
  return {
    roles: Object.fromEntries(
      roles.map((r) => [
        `${r.userId} ${r.role}`,
        {
          userId: r.userId,
          email: findUserById(db, r.userId)?.email ?? '',
          role: r.role,
        },
      ]),
    ),
    buildings: Object.fromEntries(
      listBuildings(db).map((b) => [
        b.id,
        {
          buildingId: b.id,
          name: b.name,
          floorNames: JSON.parse(b.floorNames) as string[],
        },
      ]),
    ),
    features: Object.fromEntries(listFeatures(db).map((f) => [f.name, { name: f.name }])),
    resources: Object.fromEntries(
      listResources(db).map((r) => [
        r.id,
        {
          resourceId: r.id,
          email: r.email,
          name: r.name,
          generatedName: generatedResourceName(db, r),
          category: r.category,
          capacity: r.capacity,
          buildingId: r.buildingId,
          floorName: r.floorName,
          features: featuresOf(r),
        },
      ]),
    ),
  }
}
