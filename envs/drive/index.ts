import type { ServiceProvider } from '../core/service.ts'
import { specMethods } from './api/methods.gen.ts'
import { fieldTables } from './api/fields.gen.ts'
import { driveTables } from './schema.ts'
import { DriveSeed, seedDrive } from './seed.ts'
import { dumpDrive } from './state.ts'

/**
 * Google Drive API v3: files (metadata, media/multipart/resumable uploads, download with Range, export of
 * Google Docs, the `q` grammar), permissions with per-caller visibility, about. A Google Doc is a Drive file.
 * @see https://developers.google.com/drive/api/reference/rest/v3
 */
export const drive: ServiceProvider<'drive', DriveSeed> = {
  name: 'drive',
  family: 'google',
  tables: driveTables,
  loadRouter: () => import('./router.ts').then((m) => m.router),
  pathPrefixes: ['/drive/v3/', '/upload/drive/v3/', '/resumable/upload/drive/v3/', '/feeds/download/documents/'],
  googleErrorStyle: 'legacy',
  get specMethods() {
    return specMethods()
  },
  get fieldTables() {
    return fieldTables()
  },
  seedSchema: DriveSeed,
  seed: seedDrive,
  dump: dumpDrive,
}
