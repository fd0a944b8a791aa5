import type { WorldCtx } from './context.ts'

// The office in a volume world: a building with rooms that the background meetings book, so room calendars have
// realistic occupancy (docs/decisions/0250). The background events name these rooms in `location` (ROOMS in
// ./calendar.ts); here those names become bookings of real rooms.

type Obj = Record<string, unknown>
type Room = { id: string; name: string; building: string; floor: string; capacity: number; features: string[] }

const OFFICE_NAMES = ['Main office', 'Harbourside', 'Northgate', 'Riverside']
const VIDEO = 'Video conferencing'
const BOARD = 'Whiteboard'

/** The room each background location names (by its text in ./calendar.ts). */
const BY_LOCATION: Record<string, Omit<Room, 'building'>> = {
  'Room Alder (4)': { id: 'alder', name: 'Alder', floor: '1', capacity: 4, features: [BOARD] },
  'Room Birch (8)': { id: 'birch', name: 'Birch', floor: '2', capacity: 8, features: [VIDEO] },
  'Room Cedar (12)': { id: 'cedar', name: 'Cedar', floor: '2', capacity: 12, features: [VIDEO, BOARD] },
  'Atrium booth 2': { id: 'atrium', name: 'Atrium booth', floor: '1', capacity: 2, features: [] },
}

const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : [])

/**
 * Adds the background office to a calendar slice (unless the plants already use its ids or name) and turns the
 * background events' room locations into bookings. Plants come first, so a planted booking keeps its room.
 */
export function withOffice(ctx: WorldCtx, slice: Obj, plantCount: number): Obj {
  const buildings = arr(slice.buildings)
  const taken = new Set(buildings.flatMap((b) => [String(b.id).toLowerCase(), String(b.name).toLowerCase()]))
  const slug = (n: string) => n.toLowerCase().replace(/[^a-z0-9]+/g, '-')
  const name = OFFICE_NAMES.find((n) => !taken.has(n.toLowerCase()) && !taken.has(slug(n)))
  if (!name) return slice
  // Admin-chosen ids, as an admin would pick them: the building's slug, and the room's name under it.
  const building = slug(name)
  const idOf = (room: Omit<Room, 'building'>) => `${building}-${room.id}`
  const roomIds = new Set(arr(slice.rooms).map((r) => String(r.id)))
  if (Object.values(BY_LOCATION).some((r) => roomIds.has(idOf(r)))) return slice
  const features = (Array.isArray(slice.features) ? slice.features : []) as string[]
  const events = arr(slice.events).map((e, i) => {
    const room = i >= plantCount ? BY_LOCATION[String(e.location ?? '')] : undefined
    if (!room) return e
    const { location: _l, ...rest } = e
    return { ...rest, rooms: [...(Array.isArray(e.rooms) ? e.rooms : []), idOf(room)] }
  })
  void ctx
  return {
    ...slice,
    buildings: [...buildings, { id: building, name, floors: ['1', '2'] }],
    features: [...features, ...[BOARD, VIDEO].filter((f) => !features.includes(f))],
    rooms: [...arr(slice.rooms), ...Object.values(BY_LOCATION).map((r) => ({ ...r, id: idOf(r), building }))],
    events,
  }
}
