import { OpenAPIHono } from '@hono/zod-openapi'
import type { WorldManager } from '../server/worlds.ts'

/** Gym routes on the control listener (`/gym/*` and the OpenEnv-style `/reset`, `/step`, `/state`). */
export function gymRouter(_worlds: WorldManager, _opts: { agentBaseUrl?: string } = {}): OpenAPIHono {
  return new OpenAPIHono()
}
