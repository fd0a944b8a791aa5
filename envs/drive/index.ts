import { emptySeed, emptyState } from '../core/stub.ts'
import type { ServiceProvider } from '../core/service.ts'
import { createGoogleRouter } from '../core/http.ts'
import { specMethods } from './api/methods.gen.ts'
import { driveTables } from './schema.ts'

const router = createGoogleRouter()

/** Google Drive API v3: not implemented yet; every method answers 501. */
export const drive: ServiceProvider<'drive'> = {
  name: 'drive',
  family: 'google',
  tables: driveTables,
  router,
  pathPrefixes: ['/drive/v3/', '/upload/drive/v3/'],
  specMethods,
  seedSchema: emptySeed,
  seed() {},
  dump: emptyState,
}
