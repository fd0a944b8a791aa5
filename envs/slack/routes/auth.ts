import { z } from 'zod'
import { createSlackRouter, slackMethod } from '../../core/http.ts'
import { getMeta } from '../../core/clock.ts'
import { SlackApiError } from '../../core/errors/slack.ts'

export const authRouter = createSlackRouter()

slackMethod(authRouter, {
  name: 'api.test',
  noAuth: true,
  args: z.object({ error: z.string().optional() }).passthrough(),
  handler: (_c, args) => {
    const { error, ...rest } = args
    if (error) throw new SlackApiError(error, { args: { ...rest, error } })
    return { args: rest }
  },
})

slackMethod(authRouter, {
  name: 'auth.test',
  args: z.object({}).passthrough(),
  handler: (c) => {
    const db = c.var.world.db
    const domain = getMeta(db, 'domain') ?? 'example.com'
    const team = getMeta(db, 'slack_team_name') ?? getMeta(db, 'organization') ?? 'Example Co'
    const teamId = getMeta(db, 'slack_team_id') ?? 'T0000000000'
    const subdomain = domain.split('.')[0]
    return {
      url: `https://${subdomain}.slack.com/`,
      team,
      user: c.var.user.id,
      team_id: teamId,
      user_id: c.var.user.id,
      is_enterprise_install: false,
    }
  },
})
