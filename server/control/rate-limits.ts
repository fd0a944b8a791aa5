import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { RateLimitConfig, rateLimitsOf, setRateLimits } from '../../envs/slack/ratelimit.ts'
import type { WorldManager } from '../worlds.ts'
import { ErrorBody, WorldIdParam } from './schemas.ts'

const Limits = z
  .object({
    enabled: z.boolean().openapi({ description: 'Answer HTTP 429 `ratelimited` with Retry-After past the limits' }),
    tiers: RateLimitConfig.shape.tiers
      .optional()
      .openapi({ description: 'Calls per minute per Slack tier (default 1/20/50/100)' }),
    methods: RateLimitConfig.shape.methods.optional().openapi({ description: 'Calls per minute for single methods' }),
  })
  .strict()
  .openapi('SlackRateLimits')

const json = <T extends z.ZodType>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema } },
})
const errors = { 400: json(ErrorBody, 'Bad request'), 404: json(ErrorBody, 'No such world') }

/** The answer: the limits in force (per caller and method, per minute of world clock). */
function view(db: Parameters<typeof rateLimitsOf>[0]) {
  const limits = rateLimitsOf(db)
  return limits ? { enabled: true, ...limits } : { enabled: false }
}

/**
 * Slack's opt-in rate limits of one world (the same switch as the seed's `slack.rateLimits`):
 * GET reads them, PUT switches them on with the given limits or off. Counters restart on every PUT.
 */
export function rateLimitRoutes(app: OpenAPIHono, worlds: WorldManager) {
  app.openapi(
    createRoute({
      operationId: 'worlds.rateLimits.get',
      method: 'get',
      path: '/worlds/{id}/rate-limits',
      request: { params: WorldIdParam },
      responses: { 200: json(Limits), ...errors },
    }),
    (c) => c.json(view(worlds.get(c.req.valid('param').id).world.db), 200),
  )
  app.openapi(
    createRoute({
      operationId: 'worlds.rateLimits.set',
      method: 'put',
      path: '/worlds/{id}/rate-limits',
      request: { params: WorldIdParam, body: { required: true, content: { 'application/json': { schema: Limits } } } },
      responses: { 200: json(Limits), ...errors },
    }),
    (c) => {
      const { world } = worlds.get(c.req.valid('param').id)
      const { enabled, ...limits } = c.req.valid('json')
      world.tx((db) => setRateLimits(db, enabled ? limits : null))
      return c.json(view(world.db), 200)
    },
  )
}
