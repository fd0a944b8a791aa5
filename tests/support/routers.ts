// Vitest setup file: every service's routes imported before a test file runs. In a server they are imported on
// first use (docs/decisions/0293); in-process code that reads them synchronously (the gym's typed tools,
// coverage) awaits `loadRouters()` itself, and tests get them here once per worker.
import { loadRouters } from '../../server/routers.ts'

await loadRouters()
