import { z } from '@hono/zod-openapi'

export const WorldIdParam = z.object({ id: z.string().openapi({ example: 'demo' }) })
export const SnapshotParam = z.object({
  id: z.string().openapi({ example: 'demo' }),
  name: z.string().openapi({ example: 'before' }),
})

export const CreateWorldBody = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9_]{1,40}$/)
      .optional()
      .openapi({ description: 'World id (default: generated)' }),
    seed: z
      .union([z.string(), z.record(z.string(), z.unknown())])
      .default('demo')
      .openapi({ description: 'A named seed (`demo`, `large`, `empty`) or an inline seed document' }),
    seedValue: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(1)
      .openapi({ description: 'Salts ids, tokens and generated content' }),
  })
  .openapi('CreateWorld')

export const Credential = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  googleToken: z.string().optional(),
  slackUserToken: z.string().optional(),
})

export const WorldInfo = z
  .object({
    id: z.string(),
    seed: z.string(),
    seedValue: z.number(),
    clock: z.string().openapi({ description: 'Virtual now (RFC 3339)' }),
    tickMs: z.number(),
    snapshots: z.array(z.string()),
    users: z.array(Credential),
    bots: z.array(z.object({ botUserId: z.string(), token: z.string() })),
  })
  .openapi('World')

export const WorldSummary = z
  .object({
    id: z.string(),
    seed: z.string(),
    seedValue: z.number(),
    clock: z.string(),
    snapshots: z.array(z.string()),
  })
  .openapi('WorldSummary')
export const WorldPage = z
  .object({ worlds: z.array(WorldSummary), total: z.number(), nextPageToken: z.string().optional() })
  .openapi('WorldPage')
export const ListQuery = z.object({
  pageSize: z.coerce.number().int().min(1).max(1000).default(100),
  pageToken: z.string().max(40).optional().openapi({ description: '`nextPageToken` of the previous page' }),
})

// Names are checked by the world manager (400 `bad_name` with the rule); the schema only bounds the length.
export const SnapshotBody = z.object({ name: z.string().min(1).max(200).default('default') })
export const RestoreBody = z.object({ name: z.string().min(1).max(200).default('baseline') })
export const ForkBody = z.object({
  id: z
    .string()
    .regex(/^[a-z0-9_]{1,40}$/)
    .optional(),
})

export const ClockBody = z
  .object({
    set: z
      .union([z.literal('now'), z.iso.datetime({ offset: true })])
      .optional()
      .openapi({
        description:
          "Jump to this time (never backwards); `now` is the server host's wall clock, for tools that stamp " +
          'JWT assertions with wall time (service-account key files)',
      }),
    advanceMs: z
      .number()
      .int()
      .min(0)
      .max(366 * 86_400_000)
      .optional(),
    tickMs: z.number().int().min(0).max(86_400_000).optional().openapi({ description: 'Clock step per agent request' }),
    tickLimitMs: z
      .number()
      .int()
      .min(0)
      .nullable()
      .optional()
      .openapi({ description: 'Most time agent requests may move the clock from now on (null: no cap)' }),
  })
  .openapi('ClockChange')

export const ClockInfo = z
  .object({
    clock: z.string(),
    clockMs: z.number(),
    tickMs: z.number(),
    tickLimitMs: z.number().nullable(),
    tickedMs: z.number().nullable(),
  })
  .openapi('Clock')

export const DiffQuery = z.object({
  against: z.string().default('baseline').openapi({ description: '`baseline` or a snapshot name' }),
})

export const LogQuery = z.object({
  since: z.coerce.number().int().min(0).default(0).openapi({ description: 'Return entries with seq > since' }),
  limit: z.coerce.number().int().min(1).max(10_000).default(1000),
})

export const ErrorBody = z.object({ error: z.string(), reason: z.string().optional() }).openapi('ControlError')
