import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { startSdkServer, type SdkServer } from './server.ts'

// The reference Slack MCP server (npm @modelcontextprotocol/server-slack), a tool layer agents are given as is, run
// against this server: its calls to https://slack.com/api/ are sent here by a preload (tests/sdk/mcp/slack-com.mjs),
// nothing else changes. Every tool is called through the official MCP client and its effect checked with
// @slack/web-api.
const require = createRequire(import.meta.url)
const serverSlack = join(dirname(require.resolve('@modelcontextprotocol/server-slack/package.json')), 'dist/index.js')

describe('@modelcontextprotocol/server-slack against this server', () => {
  let server: SdkServer
  let mcp: Client
  const connect = async (token: string) => {
    const client = new Client({ name: 'wsgym-test', version: '1.0.0' })
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', join(import.meta.dirname, 'mcp', 'slack-com.mjs'), serverSlack],
      env: { ...process.env, SLACK_BOT_TOKEN: token, SLACK_TEAM_ID: 'T0000000', WSGYM_SLACK_API: `${server.url}api/` },
      stderr: 'ignore',
    })
    await client.connect(transport)
    return client
  }
  const call = async (client: Client, name: string, args: Record<string, unknown>) => {
    const res = (await client.callTool({ name, arguments: args })) as { content: { text: string }[]; isError?: boolean }
    expect(res.isError ?? false, name).toBe(false)
    return JSON.parse(res.content[0]!.text)
  }

  beforeAll(async () => {
    server = await startSdkServer('demo')
    mcp = await connect(server.tokens[0]!.slackUserToken!)
  }, 60_000)
  afterAll(async () => {
    await mcp?.close()
    await server?.close()
  })

  test('lists the tools, then channels and users as conversations.list and users.list do', async () => {
    const tools = (await mcp.listTools()).tools.map((t) => t.name)
    expect(tools).toContain('slack_post_message')
    const listed = await call(mcp, 'slack_list_channels', { limit: 100 })
    const api = await server.slack().conversations.list({ limit: 100, exclude_archived: true, types: 'public_channel' })
    expect(listed.channels.map((c: { id: string }) => c.id)).toEqual(api.channels!.map((c) => c.id))
    const users = await call(mcp, 'slack_get_users', { limit: 200 })
    const apiUsers = await server.slack().users.list({ limit: 200 })
    expect(users.members.map((u: { id: string }) => u.id)).toEqual(apiUsers.members!.map((u) => u.id))
    const profile = await call(mcp, 'slack_get_user_profile', { user_id: apiUsers.members![1]!.id })
    expect(profile.profile.real_name).toBe(apiUsers.members![1]!.profile!.real_name)
  }, 60_000)

  test('posts, replies in the thread and reacts; history and replies show it', async () => {
    const general = (await server.slack().conversations.list({ limit: 100 })).channels!.find(
      (c) => c.name === 'general',
    )!.id!
    const posted = await call(mcp, 'slack_post_message', { channel_id: general, text: 'Release notes are up' })
    expect(posted.ok).toBe(true)
    const reply = await call(mcp, 'slack_reply_to_thread', {
      channel_id: general,
      thread_ts: posted.ts,
      text: 'Thanks, reviewing now',
    })
    expect(reply.message.thread_ts).toBe(posted.ts)
    expect(
      (await call(mcp, 'slack_add_reaction', { channel_id: general, timestamp: posted.ts, reaction: 'eyes' })).ok,
    ).toBe(true)
    const history = await call(mcp, 'slack_get_channel_history', { channel_id: general, limit: 5 })
    expect(history.messages[0]).toMatchObject({ ts: posted.ts, text: 'Release notes are up', reply_count: 1 })
    const replies = await call(mcp, 'slack_get_thread_replies', { channel_id: general, thread_ts: posted.ts })
    expect(replies.messages.map((m: { text: string }) => m.text)).toEqual([
      'Release notes are up',
      'Thanks, reviewing now',
    ])
    const me = (await server.slack().auth.test()).user_id
    const reactions = await server.slack().reactions.get({ channel: general, timestamp: posted.ts })
    expect(reactions.message!.reactions).toEqual([expect.objectContaining({ name: 'eyes', users: [me] })])
  }, 60_000)

  test('a bot not in the channel gets Slack’s not_in_channel, and nothing is posted', async () => {
    const bot = server.worlds.botTokens(server.entry.id)[0]!.token
    const client = await connect(bot)
    try {
      const general = (await server.slack().conversations.list({ limit: 100 })).channels!.find(
        (c) => c.name === 'general',
      )!.id!
      const before = (await server.slack().conversations.history({ channel: general, limit: 1 })).messages![0]!.ts
      const res = await call(client, 'slack_post_message', { channel_id: general, text: 'from an outsider bot' })
      expect(res).toMatchObject({ ok: false, error: 'not_in_channel' })
      expect((await server.slack().conversations.history({ channel: general, limit: 1 })).messages![0]!.ts).toBe(before)
    } finally {
      await client.close()
    }
  }, 60_000)
})
