import { emptySeed, emptyState } from '../core/stub.ts'
import type { ServiceProvider } from '../core/service.ts'
import { createGoogleRouter } from '../core/http.ts'
import { specMethods } from './api/methods.gen.ts'

const router = createGoogleRouter()

/** Google Docs API v1: not implemented yet; every method answers 501. */
export const docs: ServiceProvider<'docs'> = {
  name: 'docs',
  family: 'google',
  tables: [],
  router,
  pathPrefixes: ['/v1/documents'],
  specMethods,
  seedSchema: emptySeed,
  seed() {},
  dump: emptyState,
}
