import { describe, expect, test } from 'vitest'
import { slackWorld } from './helpers.ts'

const world = (now: string) =>
  slackWorld({
    name: 'slack-tz',
    now,
    users: [{ id: 'ann', email: 'ann@example.com', name: 'Ann Lee', timeZone: 'America/New_York' }],
  })

describe('users.info', () => {
  test('tz_offset and tz_label follow the world clock across daylight saving, not the host clock', async () => {
    const winter = world('2026-01-15T12:00:00Z')
    const summer = world('2026-07-15T12:00:00Z')
    const info = async (w: ReturnType<typeof world>) =>
      (await w.api('users.info', { user: await w.uid('ann') }, 'ann')).user
    expect(await info(winter)).toMatchObject({
      tz: 'America/New_York',
      tz_offset: -18000,
      tz_label: 'Eastern Standard Time',
    })
    expect(await info(summer)).toMatchObject({
      tz: 'America/New_York',
      tz_offset: -14400,
      tz_label: 'Eastern Daylight Time',
    })
  })
})
