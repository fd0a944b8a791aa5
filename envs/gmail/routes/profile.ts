import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter } from '../../core/http.ts'
import { resolveMailboxUser } from '../mailbox.ts'

const getProfile = createRoute({
  operationId: 'gmail.users.getProfile',
  method: 'get',
  path: '/gmail/v1/users/{userId}/profile',
  request: { params: z.object({ userId: z.string() }) },
  responses: {
    200: {
      description: 'Profile',
      content: {
        'application/json': {
          schema: z.object({
            emailAddress: z.string(),
            messagesTotal: z.number().int(),
            threadsTotal: z.number().int(),
            historyId: z.string(),
          }),
        },
      },
    },
  },
})

export const profileRouter = createGoogleRouter().openapi(getProfile, (c) => {
  const user = resolveMailboxUser(c, c.req.valid('param').userId)
  return c.json({ emailAddress: user.email, messagesTotal: 0, threadsTotal: 0, historyId: '1' }, 200)
})
