import type { SeedUser } from '../../envs/core/seed-types.ts'

/** The demo company: Northwind Labs, a small product studio spread over three time zones. */
export const DEMO_DOMAIN = 'northwind.test'
export const DEMO_ORG = 'Northwind Labs'
export const DEMO_NOW = '2026-03-02T14:00:00Z'

export const demoUsers: SeedUser[] = [
  {
    id: 'alice',
    email: 'alice@northwind.test',
    name: 'Alice Moreno',
    timeZone: 'America/New_York',
    title: 'CEO',
    admin: true,
  },
  {
    id: 'bob',
    email: 'bob@northwind.test',
    name: 'Bob Okafor',
    timeZone: 'America/New_York',
    title: 'Head of Engineering',
    admin: false,
  },
  {
    id: 'carol',
    email: 'carol@northwind.test',
    name: 'Carol Lindqvist',
    timeZone: 'Europe/Stockholm',
    title: 'Designer',
    admin: false,
  },
  {
    id: 'dan',
    email: 'dan@northwind.test',
    name: 'Dan Whitfield',
    timeZone: 'America/Los_Angeles',
    title: 'Account Manager',
    admin: false,
  },
  {
    id: 'erin',
    email: 'erin@northwind.test',
    name: 'Erin Castillo',
    timeZone: 'America/Chicago',
    title: 'Finance Lead',
    admin: false,
  },
]

/** People outside the company who write to it (customers, vendors, a phisher). */
export const demoExternals = [
  { name: 'Priya Raman', email: 'priya@acme-corp.test', company: 'Acme Corp' },
  { name: 'Tom Becker', email: 'tom.becker@globex.test', company: 'Globex' },
  { name: 'Mei Chen', email: 'mei@initech.test', company: 'Initech' },
  { name: 'Lars Nilsson', email: 'lars@umbrella-supplies.test', company: 'Umbrella Supplies' },
  { name: 'IT Helpdesk', email: 'helpdesk@northwind-support.test', company: 'Unknown' },
] as const
