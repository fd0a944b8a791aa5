import { OpenAPIHono } from '@hono/zod-openapi'
import type { WorldManager } from '../server/worlds.ts'

/** Gym routes on the control listener (`/gym/*` and the OpenEnv-style `/reset`, `/step`, `/state`). */
export function gymRouter(_worlds: WorldManager): OpenAPIHono {
  return new OpenAPIHono()
}
