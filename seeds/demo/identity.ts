import type { DemoContext } from './context.ts'

const CAL = 'https://www.googleapis.com/auth/calendar.events'
const MAIL_READ = 'https://www.googleapis.com/auth/gmail.readonly'

/**
 * Demo OAuth clients and connected apps: an internal expense tool the team uses (redirects to loopback, so a local
 * program can run the authorization-code flow against it), a scheduling app, and a mail-reading app one person added.
 */
export function demoIdentity(ctx: DemoContext) {
  const rng = ctx.rng.fork('identity')
  const reader = rng.pick(['Receipt Scanner', 'Mail Insights', 'Newsletter Digest'])
  return {
    clients: [
      {
        key: 'expenses',
        name: 'Northwind Expenses',
        redirectUris: ['http://127.0.0.1:8765/callback', 'http://localhost:8765/callback'],
      },
      { key: 'scheduler', name: 'Calendly Sync', scopes: [CAL, 'openid', 'email'] },
      { key: 'reader', name: reader, scopes: [MAIL_READ, 'openid', 'email'] },
    ],
    grants: [
      { user: 'bob', client: 'scheduler', scopes: [CAL, 'openid', 'email'], created: '-40d', lastUsed: '-1d' },
      { user: 'dan', client: 'scheduler', scopes: [CAL, 'openid', 'email'], created: '-25d', lastUsed: '-3d' },
      { user: 'erin', client: 'reader', scopes: [MAIL_READ, 'openid', 'email'], created: '-9d', lastUsed: '-2h' },
    ],
  }
}
