import { z } from 'zod'
import { stmt } from '../../core/db.ts'
import { createSlackRouter, slackBool, slackMethod } from '../../core/http.ts'
import { getMeta } from '../../core/clock.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { me, teamDomain, teamId } from '../store/core.ts'
import { customEmoji, emojiCacheTs } from '../store/emoji.ts'
import { teamName } from '../store/admin.ts'

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
    const u = me(c)
    const out: Record<string, unknown> = {
      url: `https://${teamDomain(db)}.slack.com/`,
      team: teamName(db),
      user: u.handle,
      team_id: teamId(db),
      user_id: u.id,
    }
    if (u.is_bot) out.bot_id = u.bot_id
    out.is_enterprise_install = false
    return out
  },
})

slackMethod(authRouter, {
  name: 'auth.revoke',
  args: z.object({ test: slackBool().optional() }),
  handler: (c, a) => {
    if (!a.test) {
      const auth = c.req.header('authorization') ?? ''
      const token = auth.replace(/^Bearer\s+/i, '') || String(c.var.slackArgs.token ?? '')
      const key = c.var.keys.check(token)?.key ?? ''
      c.var.world.tx((db) => stmt(db, 'UPDATE world_tokens SET revoked = 1 WHERE key = ?').run(key))
    }
    return { revoked: !a.test }
  },
})

slackMethod(authRouter, {
  name: 'team.info',
  args: z.object({ team: z.string().optional(), domain: z.string().optional() }),
  scopes: { user: ['team:read'], bot: ['team:read'] },
  handler: (c, a) => {
    const db = c.var.world.db
    if (a.team && a.team !== teamId(db)) throw new SlackApiError('team_not_found')
    const domain = teamDomain(db)
    return {
      team: {
        id: teamId(db),
        name: teamName(db),
        url: `https://${domain}.slack.com/`,
        domain,
        email_domain: getMeta(db, 'domain') ?? '',
        icon: {
          image_default: true,
          image_34: 'https://a.slack-edge.com/80588/img/avatars-teams/ava_0001-34.png',
          image_44: 'https://a.slack-edge.com/80588/img/avatars-teams/ava_0001-44.png',
          ...Object.fromEntries(
            [68, 88, 102, 132, 230].map((n) => [
              `image_${n}`,
              `https://a.slack-edge.com/80588/img/avatars-teams/ava_0001-${n}.png`,
            ]),
          ),
        },
        avatar_base_url: 'https://ca.slack-edge.com/',
        is_verified: false,
        discoverable: null,
        enterprise_id: null,
        enterprise_name: null,
        enterprise_domain: null,
        is_sfdc_auto_slack: false,
        lob_sales_home_enabled: false,
      },
    }
  },
})

slackMethod(authRouter, {
  name: 'team.profile.get',
  args: z.object({ visibility: z.string().optional() }),
  scopes: { user: ['users.profile:read'], bot: ['users.profile:read'] },
  handler: () => ({
    profile: {
      fields: [
        {
          id: 'Xf01',
          ordering: 0,
          label: 'Pronouns',
          hint: 'How should colleagues refer to you?',
          type: 'text',
          possible_values: null,
          options: null,
          is_hidden: false,
          section_id: 'S01',
        },
        {
          id: 'Xf02',
          ordering: 1,
          label: 'Team',
          hint: 'Which team are you on?',
          type: 'text',
          possible_values: null,
          options: null,
          is_hidden: false,
          section_id: 'S01',
        },
      ],
      sections: [
        { id: 'S01', team_id: '', section_type: 'contact', label: 'Contact information', order: 1, is_hidden: false },
      ],
    },
  }),
})

slackMethod(authRouter, {
  name: 'emoji.list',
  args: z.object({ include_categories: slackBool().optional() }),
  scopes: { user: ['emoji:read'], bot: ['emoji:read'] },
  handler: (c) => {
    const _ = me(c)
    // Custom emoji of the workspace (admin.emoji.* edits them); standard Unicode emoji are not listed (as in Slack).
    return { emoji: customEmoji(c.var.world.db), cache_ts: emojiCacheTs(c.var.world.db) }
  },
})
