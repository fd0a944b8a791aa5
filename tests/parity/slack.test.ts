import { describe, expect, test } from 'vitest'
import { compareShapes, recorded } from './shape.ts'
import { slackWorld } from '../slack/helpers.ts'

// Writes go as JSON without a charset, as the recorder sent them (hence Slack's missing_charset warning).
// Our responses against responses recorded from the real Slack API, compared by shape (keys and types).
// `IGNORE` lists keys that depend on data the recording happened to have (enterprise grid, image blocks, files).

type Case = { name: string; run: (w: Awaited<ReturnType<typeof setup>>) => Promise<unknown>; ignore?: string[] }

async function setup() {
  const w = slackWorld()
  const general = await w.channel('engineering')
  const bot = w.bot()
  const posted = await w.api('chat.postMessage', { channel: general, text: 'parity' }, bot)
  return { ...w, general, botToken: bot, posted }
}

const ENTERPRISE = [
  'members[].profile.fields',
  'members[].profile.huddle_state',
  'members[].profile.api_app_id',
  'members[].profile.bot_id',
  'user.enterprise_user',
  'members[].enterprise_user',
  'user.profile.image_1024',
  'user.profile.image_original',
  'user.profile.is_custom_image',
  'members[].profile.image_1024',
  'members[].profile.image_original',
  'members[].profile.is_custom_image',
]

const cases: Case[] = [
  { name: 'auth_test', run: (w) => w.api('auth.test', {}, w.botToken), ignore: ['enterprise_id'] },
  {
    name: 'chat_post_message_response',
    run: (w) => w.api('chat.postMessage', { channel: w.general, text: 'x' }, w.botToken, true),
  },
  {
    name: 'chat_post_message_error_channel_not_found',
    run: (w) => w.api('chat.postMessage', { channel: 'CNOPE', text: 'x' }, 'alice', true),
  },
  {
    name: 'chat_post_message_error_no_text',
    run: (w) => w.api('chat.postMessage', { channel: w.general }, 'alice', true),
  },
  {
    name: 'chat_delete_response',
    run: (w) => w.api('chat.delete', { channel: w.general, ts: w.posted.ts }, w.botToken, true),
  },
  {
    name: 'chat_delete_error_message_not_found',
    run: (w) => w.api('chat.delete', { channel: w.general, ts: '1.000001' }, 'alice', true),
  },
  {
    name: 'chat_update_error_message_not_found',
    run: (w) => w.api('chat.update', { channel: w.general, ts: '1.000001', text: 'x' }, 'alice', true),
  },
  {
    name: 'chat_get_permalink',
    run: (w) => w.api('chat.getPermalink', { channel: w.general, message_ts: w.posted.ts }),
  },
  {
    name: 'chat_post_ephemeral_response',
    run: async (w) =>
      w.api('chat.postEphemeral', { channel: w.general, user: await w.uid('bob'), text: 'x' }, 'alice', true),
  },
  { name: 'conversations_info_error_channel_not_found', run: (w) => w.api('conversations.info', { channel: 'CNOPE' }) },
  {
    name: 'conversations_history_error_channel_not_found',
    run: (w) => w.api('conversations.history', { channel: 'CNOPE' }),
  },
  // last_read is sent to members only; the recording was made by a non-member.
  {
    name: 'conversations_info',
    run: (w) => w.api('conversations.info', { channel: w.general }),
    ignore: ['channel.last_read'],
  },
  { name: 'conversations_list', run: (w) => w.api('conversations.list', { limit: 2 }) },
  { name: 'conversations_members', run: (w) => w.api('conversations.members', { channel: w.general, limit: 2 }) },
  {
    name: 'pins_add_response',
    run: (w) => w.api('pins.add', { channel: w.general, timestamp: w.posted.ts }, 'alice', true),
  },
  {
    name: 'reactions_add_response',
    run: (w) => w.api('reactions.add', { channel: w.general, timestamp: w.posted.ts, name: 'eyes' }, 'alice', true),
  },
  {
    name: 'reactions_add_error_invalid_target',
    run: (w) => w.api('reactions.add', { channel: w.general, timestamp: '1.000001', name: 'eyes' }, 'alice', true),
  },
  { name: 'users_info', run: async (w) => w.api('users.info', { user: await w.uid('bob') }), ignore: ENTERPRISE },
  { name: 'users_list', run: (w) => w.api('users.list', { limit: 2 }), ignore: ENTERPRISE },
  {
    name: 'users_lookup_by_email',
    run: (w) => w.api('users.lookupByEmail', { email: 'bob@northwind.test' }),
    ignore: ENTERPRISE,
  },
  { name: 'users_set_presence_response', run: (w) => w.api('users.setPresence', { presence: 'away' }, 'alice', true) },
  { name: 'team_info', run: (w) => w.api('team.info') },
  { name: 'reminders_list', run: (w) => w.api('reminders.list') },
]

describe('slack parity with recorded responses', () => {
  test.each(cases)('$name', async ({ name, run, ignore }) => {
    const w = await setup()
    const ours = await run(w)
    const diff = compareShapes(ours, recorded('slack', name), ignore)
    if (process.env.SHOW) console.log(name, JSON.stringify(diff), JSON.stringify(recorded('slack', name)).slice(0, 400))
    expect(diff).toEqual({ missing: [], extra: [] })
  })
})
