import type { SeedDocument } from '../server/seeding.ts'
import { demoSeed } from './demo/index.ts'
import { largeSeed } from './large/index.ts'
import { DEMO_NOW } from './demo/people.ts'

/** Seeds that can be named instead of given inline (`wsgym serve --seed demo`, `POST /worlds {seed:"demo"}`). */
export const namedSeeds: Record<string, (seedValue: number) => SeedDocument> = {
  demo: demoSeed,
  large: largeSeed,
  empty: () => ({
    name: 'empty',
    now: DEMO_NOW,
    users: [{ id: 'agent', email: 'agent@example.com', name: 'Agent Smith' }],
  }),
}
