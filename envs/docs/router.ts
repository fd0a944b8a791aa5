// Docs's routes, imported by `loadRouter()` when a request first reaches the service (docs/decisions/0293).
import { createGoogleRouter } from '../core/http.ts'
import { documentsRouter } from './routes/documents.ts'

export const router = createGoogleRouter().route('/', documentsRouter)
