// Drive's routes, imported by `loadRouter()` when a request first reaches the service (docs/decisions/0293).
import { createGoogleRouter } from '../core/http.ts'
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

export const router = createGoogleRouter()
  .route('/', aboutRouter)
  .route('/', uploadsRouter)
  .route('/', operationsRouter)
  .route('/', filesRouter)
  .route('/', permissionsRouter)
  .route('/', changesRouter)
  .route('/', revisionsRouter)
  .route('/', commentsRouter)
  .route('/', drivesRouter)
  .route('/', channelsRouter)
  .route('/', appsRouter)
  .route('/', labelsRouter)
  .route('/', approvalsRouter)
  .route('/', accessProposalsRouter)
