import { z } from '@hono/zod-openapi'

// The OpenAPI shapes the identity routes share: Google's bodies are validated by the handlers (with Google's own
// errors), so the route definitions only declare JSON in and out.

/** A 200 response of JSON matching `schema`. */
export const json = (schema: z.ZodType) => ({ description: 'OK', content: { 'application/json': { schema } } })
/** A 200 response of any JSON object. */
export const Any = json(z.record(z.string(), z.unknown()))
/** A required JSON object body. */
export const Body = { required: true, content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } }
