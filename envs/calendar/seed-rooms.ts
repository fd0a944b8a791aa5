import { z } from 'zod'
import type { Db } from '../core/db.ts'
import {
  findBuilding,
  findFeature,
  findResource,
  insertBuilding,
  insertFeature,
  insertResource,
} from '../core/resources.ts'

// Rooms in a seed: buildings, features and rooms (Directory calendar resources, kernel tables) are seeded with
// Calendar because bookings are Calendar events and Calendar seeds before identity (server/registry.ts order).

const SeedBuilding = z
  .object({
    id: z.string().min(1).max(100),
    name: z.string().min(1),
    description: z.string().default(''),
    floors: z.array(z.string()).default([]),
    coordinates: z
      .object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
      .optional(),
  })
  .strict()

const SeedRoom = z
  .object({
    /** The resourceId (admin-chosen). */
    id: z.string().min(1),
    name: z.string().min(1),
    /** Given, or `c_<18 digits>@resource.calendar.google.com` derived from the world's salt. */
    email: z
      .string()
      .regex(/^[^@\s]+@resource\.calendar\.google\.com$/)
      .optional(),
    building: z.string().optional(),
    floor: z.string().optional(),
    section: z.string().optional(),
    capacity: z.number().int().min(0).optional(),
    features: z.array(z.string()).default([]),
    category: z.enum(['CONFERENCE_ROOM', 'OTHER']).default('CONFERENCE_ROOM'),
    type: z.string().optional(),
    description: z.string().optional(),
    userVisibleDescription: z.string().optional(),
  })
  .strict()

export const RoomSeed = z.object({
  buildings: z.array(SeedBuilding).default([]),
  features: z.array(z.string().min(1)).default([]),
  rooms: z.array(SeedRoom).default([]),
})
type RoomSeed = z.output<typeof RoomSeed>

/** Writes the seed's buildings, features and rooms, checking what they refer to. */
export function seedRooms(db: Db, seed: RoomSeed): void {
  seed.buildings.forEach((b, i) => {
    if (findBuilding(db, b.id)) throw new Error(`calendar.buildings[${i}].id: duplicate building "${b.id}"`)
    insertBuilding(db, {
      id: b.id,
      name: b.name,
      description: b.description,
      floorNames: JSON.stringify(b.floors),
      coordinates: b.coordinates ? JSON.stringify(b.coordinates) : null,
      address: null,
    })
  })
  seed.features.forEach((f, i) => {
    if (findFeature(db, f)) throw new Error(`calendar.features[${i}]: duplicate feature "${f}"`)
    insertFeature(db, f)
  })
  seed.rooms.forEach((r, i) => {
    const path = `calendar.rooms[${i}]`
    if (findResource(db, r.id)) throw new Error(`${path}.id: duplicate room "${r.id}"`)
    const building = r.building ? findBuilding(db, r.building) : undefined
    if (r.building && !building) throw new Error(`${path}.building: no building "${r.building}" in calendar.buildings`)
    if (r.floor && building && !(JSON.parse(building.floorNames) as string[]).includes(r.floor)) {
      throw new Error(`${path}.floor: "${r.floor}" is not a floor of ${r.building}`)
    }
    r.features.forEach((f, j) => {
      if (!findFeature(db, f)) throw new Error(`${path}.features[${j}]: no feature "${f}" in calendar.features`)
    })
    insertResource(db, {
      id: r.id,
      ...(r.email ? { email: r.email } : {}),
      name: r.name,
      type: r.type ?? null,
      category: r.category,
      description: r.description ?? null,
      userVisibleDescription: r.userVisibleDescription ?? null,
      capacity: r.capacity ?? null,
      buildingId: r.building ?? null,
      floorName: r.floor ?? null,
      floorSection: r.section ?? null,
      features: JSON.stringify(r.features),
    })
  })
}

/** A seeded room's address, by resourceId. */
export function roomEmail(db: Db, id: string, path: string): string {
  const room = findResource(db, id)
  if (!room) throw new Error(`${path}: no room "${id}" in calendar.rooms`)
  return room.email
}
