import { harness, type Harness } from '../../envs/core/testing/harness.ts'
import { advanceClock } from '../../envs/core/clock.ts'
import { slack } from '../../envs/slack/index.ts'

/** A demo world with Slack helpers: `api(method, args, user)` posts a form, `ids` maps world users to Slack ids. */
export function slackWorld(seed: string | Record<string, unknown> = 'demo') {
  const h = harness(seed)
  const api = async (
    method: string,
    args: Record<string, unknown> = {},
    user: string | null = 'alice',
    asJson = false,
  ) => {
    if (asJson)
      return (
        await h.call('POST', `/api/${method}`, {
          json: args,
          token: user === null ? null : user.startsWith('xox') ? user : h.slack(user),
        })
      ).body
    const form = Object.fromEntries(
      Object.entries(args).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    )
    const token = user === null ? null : user.startsWith('xox') ? user : h.slack(user)
    return (await h.call('POST', `/api/${method}`, { form, token })).body
  }
  const uid = async (user: string) => (await api('auth.test', {}, user)).user_id as string
  const channel = async (name: string, user = 'alice') => {
    const r = await api('conversations.list', { types: 'public_channel,private_channel', limit: 1000 }, user)
    return (r.channels as { id: string; name: string }[]).find((c) => c.name === name)?.id as string
  }
  const bot = () => h.worlds.botTokens(h.entry.id)[0]!.token
  return { h, api, uid, channel, bot }
}

export type SlackWorld = ReturnType<typeof slackWorld>

/** Moves the world's clock and runs Slack's clock work, as a request after that much time would. */
export function passTime(w: SlackWorld, ms: number) {
  const world = w.h.entry.world
  const from = Number(world.db.$client.prepare("SELECT value FROM world_meta WHERE key='clock_ms'").pluck().get())
  world.tx((db) => advanceClock(db, ms))
  slack.onClockAdvance!(world, from, from + ms)
}
export type { Harness }
