import type { ServiceProvider } from '../core/service.ts'
import { specMethods } from './api/methods.gen.ts'
import { fieldTables } from './api/fields.gen.ts'
import { docsTables } from './schema.ts'
import { docsSeedSchema, seedDocs, type DocsSeed } from './seed.ts'
import { dumpDocs } from './state.ts'

/** Google Docs API v1 over the Drive store: documents.create, get and batchUpdate (all 40 request kinds). */
export const docs: ServiceProvider<'docs', DocsSeed> = {
  name: 'docs',
  family: 'google',
  tables: docsTables,
  loadRouter: () => import('./router.ts').then((m) => m.router),
  pathPrefixes: ['/v1/documents'],
  get specMethods() {
    return specMethods()
  },
  get fieldTables() {
    return fieldTables()
  },
  seedSchema: docsSeedSchema,
  seed: seedDocs,
  dump: dumpDocs,
}
