import type { Server as ServerType } from 'node:http'
import { serveFetch as serve } from '../../server/web/serve.ts'
import type { AddressInfo } from 'node:net'
import { google } from 'googleapis'
import { WebClient } from '@slack/web-api'
import { WorldManager, type WorldEntry } from '../../server/worlds.ts'
import { createAgentApp } from '../../server/app.ts'

export type SdkServer = {
  url: string
  worlds: WorldManager
  entry: WorldEntry
  close(): Promise<void>
  /** An OAuth2 client holding a user's token (no network needed for auth). */
  auth(userId?: string): InstanceType<typeof google.auth.OAuth2>
  /** A Slack WebClient for a user (or a bot token) pointed at this server. */
  slack(userIdOrToken?: string): WebClient
  tokens: ReturnType<WorldManager['credentials']>
}

/** Serves one world on a real loopback socket, for the official clients. */
export async function startSdkServer(
  seed: string | Record<string, unknown> = 'demo',
  seedValue = 1,
): Promise<SdkServer> {
  const worlds = new WorldManager()
  const entry = worlds.create({ id: 'sdk', seed, seedValue })
  const app = createAgentApp(worlds)
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  const port = (server.address() as AddressInfo).port
  const url = `http://127.0.0.1:${port}/`
  const tokens = worlds.credentials(entry.id)
  const pick = (userId?: string) => (userId ? tokens.find((t) => t.id === userId) : tokens[0])
  return {
    url,
    worlds,
    entry,
    tokens,
    close: () => new Promise((resolve) => server.close(() => resolve())),
    auth(userId) {
      const client = new google.auth.OAuth2()
      client.setCredentials({ access_token: pick(userId)!.googleToken!, expiry_date: Date.now() + 3_600_000 })
      return client
    },
    slack(userIdOrToken) {
      const token = userIdOrToken?.startsWith('xox') ? userIdOrToken : pick(userIdOrToken)!.slackUserToken!
      return new WebClient(token, { slackApiUrl: `${url}api/`, retryConfig: { retries: 0 } })
    },
  }
}
