import type { ServiceProvider } from '../core/service.ts'
import { createGoogleRouter } from '../core/http.ts'
import { specMethods } from './api/methods.gen.ts'
import { fieldTables } from './api/fields.gen.ts'
import { driveTables } from './schema.ts'
import { filesRouter } from './routes/files.ts'
import { permissionsRouter } from './routes/permissions.ts'
import { aboutRouter } from './routes/about.ts'
import { uploadsRouter } from './routes/uploads.ts'
import { changesRouter } from './routes/changes.ts'
import { revisionsRouter } from './routes/revisions.ts'
import { commentsRouter } from './routes/comments.ts'
import { drivesRouter } from './routes/drives.ts'
import { channelsRouter } from './routes/channels.ts'
import { approvalsRouter } from './routes/approvals.ts'
import { accessProposalsRouter } from './routes/access-proposals.ts'
import { appsRouter } from './routes/apps.ts'
import { labelsRouter } from './routes/labels.ts'
import { operationsRouter } from './routes/operations.ts'
import { DriveSeed, seedDrive } from './seed.ts'
import { dumpDrive } from './state.ts'

const router = createGoogleRouter().route('/', aboutRouter).route('/', uploadsRouter).route('/', operationsRouter).route('/', filesRouter).route('/', permissionsRouter).route('/', changesRouter).route('/', revisionsRouter).route('/', commentsRouter).route('/', drivesRouter).route('/', channelsRouter).route('/', appsRouter).route('/', labelsRouter).route('/', approvalsRouter).route('/', accessProposalsRouter)

/**
 * Google Drive API v3: files (metadata, media/multipart/resumable uploads, download with Range, export of
 * Google Docs, the `q` grammar), permissions with per-caller visibility, about. A Google Doc is a Drive file.
 * @see https://developers.google.com/drive/api/reference/rest/v3
 */
export const drive: ServiceProvider<'drive', DriveSeed> = {
  name: 'drive',
  family: 'google',
  tables: driveTables,
  router,
  pathPrefixes: ['/drive/v3/', '/upload/drive/v3/', '/resumable/upload/drive/v3/'],
  googleErrorStyle: 'legacy',
  specMethods,
  fieldTables,
  seedSchema: DriveSeed,
  seed: seedDrive,
  dump: dumpDrive,
}
