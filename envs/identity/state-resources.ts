import type { Json } from '../core/service.ts'
import type { World } from '../core/world.ts'
import { selectRows } from '../core/db.ts'
import { findUserById } from '../core/users.ts'
import { featuresOf, generatedResourceName } from '../core/resources.ts'
import { identityRoles } from './schema.ts'
import { listBuildings, listFeatures, listResources } from './store/resources.ts'
import { listAssignments, listRoles } from './store/roles.ts'
import { findGroupById } from './store/groups.ts'
import { unitById } from './store/org-units.ts'

/** The dump's delegated roles, buildings, features and rooms (shape in ./state.ts). */
export function resourceEntities(world: World): Record<string, Record<string, Json>> {
  const db = world.db
  const roles = selectRows(db, identityRoles, {}).sort((a, b) => a.userId.localeCompare(b.userId))
  const names = new Map(listRoles(db).map((r) => [r.id, r.name]))
  // Admin role assignments (super admins are the users' isAdmin), keyed by assignee, role name and unit.
  const assigned = listAssignments(db, [])
    .filter((a) => !a.calendarResources) // listed under `roles` as before
    .map((a) => {
      const user = a.assigneeType === 'user' ? findUserById(db, a.assigneeId) : undefined
      const group = a.assigneeType === 'group' ? findGroupById(db, a.assigneeId) : undefined
      const unit = a.orgUnitId ? unitById(db, a.orgUnitId)?.path : undefined
      const role = names.get(a.roleId) ?? a.roleId
      const entry = { userId: user?.id ?? '', email: user?.email ?? group?.email ?? '', role }
      return [
        `${a.assigneeId} ${role}${unit ? ` ${unit}` : ''}`,
        unit ? { ...entry, orgUnitPath: unit } : entry,
      ] as const
    })
    .sort((a, b) => a[0].localeCompare(b[0]))
  const custom = listRoles(db).filter((r) => !r.system)
  return {
    roles: Object.fromEntries([
      ...roles.map((r) => [
        `${r.userId} ${r.role}`,
        {
          userId: r.userId,
          email: findUserById(db, r.userId)?.email ?? '',
          role: r.role,
        },
      ]),
      ...assigned,
    ]),
    customRoles: Object.fromEntries(
      custom.map((r) => [
        r.name,
        { roleName: r.name, description: r.description, privileges: r.privileges.map((p) => p.privilegeName) },
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
