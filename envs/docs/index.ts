import type { ServiceProvider } from '../core/service.ts'
import { createGoogleRouter } from '../core/http.ts'
import { specMethods } from './api/methods.gen.ts'
import { fieldTables } from './api/fields.gen.ts'
import { docsTables } from './schema.ts'
import { documentsRouter } from './routes/documents.ts'
import { docsSeedSchema, seedDocs, type DocsSeed } from './seed.ts'
import { dumpDocs } from './state.ts'

const router = createGoogleRouter().route('/', documentsRouter)

/** Google Docs API v1 over the Drive store: documents.create, get and batchUpdate (all 40 request kinds). */
export const docs: ServiceProvider<'docs', DocsSeed> = {
  name: 'docs',
  family: 'google',
  tables: docsTables,
  router,
  pathPrefixes: ['/v1/documents'],
  specMethods,
  fieldTables,
  seedSchema: docsSeedSchema,
  seed: seedDocs,
  dump: dumpDocs,
}
