/**
 * Places whose clock time an answer may give beside its own ("12:30 London time / 13:30 Paris", docs/decisions/
 * 0444): every canonical IANA zone's city (its last part, "new york" for America/New_York), outside Antarctica, and a
 * few large cities no zone is named after. Words a text uses for other things right after a time ("reunion",
 * "center", "wake", "easter") and people's names ("darwin", "regina", "stanley") are left out, so "12:30 reunion" is
 * no place's time.
 */
const NOT_PLACES = new Set(
  [
    'center knox marengo vevay monticello beulah petersburg vincennes winamac oral resolute regina christmas easter',
    'wake midway norfolk reunion stanley darwin dawson nome canary thule creston truk cocos',
  ]
    .join(' ')
    .split(' '),
)
const MORE: Record<string, string> = {
  'san francisco': 'America/Los_Angeles',
  seattle: 'America/Los_Angeles',
  boston: 'America/New_York',
  washington: 'America/New_York',
  miami: 'America/New_York',
  atlanta: 'America/New_York',
  dallas: 'America/Chicago',
  houston: 'America/Chicago',
  austin: 'America/Chicago',
  munich: 'Europe/Berlin',
  frankfurt: 'Europe/Berlin',
  hamburg: 'Europe/Berlin',
  milan: 'Europe/Rome',
  barcelona: 'Europe/Madrid',
  geneva: 'Europe/Zurich',
  edinburgh: 'Europe/London',
  manchester: 'Europe/London',
  kyiv: 'Europe/Kyiv',
  mumbai: 'Asia/Kolkata',
  bangalore: 'Asia/Kolkata',
  delhi: 'Asia/Kolkata',
  'new delhi': 'Asia/Kolkata',
  kolkata: 'Asia/Kolkata',
  beijing: 'Asia/Shanghai',
  kathmandu: 'Asia/Kathmandu',
}

let zones: Map<string, string> | undefined
/** City (lower case, spaces for underscores) → IANA zone. */
export function cityZones(): Map<string, string> {
  if (zones) return zones
  zones = new Map()
  for (const z of Intl.supportedValuesOf('timeZone')) {
    if (!z.includes('/') || /^(?:Antarctica|Etc)\//.test(z)) continue
    const city = z.split('/').at(-1)!.replace(/_/g, ' ').toLowerCase()
    if (!NOT_PLACES.has(city) && !zones.has(city)) zones.set(city, z)
  }
  for (const [city, z] of Object.entries(MORE)) if (!zones.has(city)) zones.set(city, z)
  return zones
}

let pattern: string | undefined
/** The cities of `cityZones` as one alternation, longest first ("new york" before "york"). */
export function cityPattern(): string {
  pattern ??= [...cityZones().keys()]
    .sort((a, b) => b.length - a.length)
    .map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'))
    .join('|')
  return pattern
}
