import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'

const S = 'https://www.googleapis.com/auth/'
/** Scopes that let an app read message contents, and look-alikes that do not. */
const READS = [['https://mail.google.com/'], [`${S}gmail.readonly`], [`${S}gmail.modify`]]
const NOT_READING = [
  [`${S}gmail.metadata`],
  [`${S}gmail.send`],
  [`${S}calendar.events`],
  [`${S}drive.file`],
  [`${S}gmail.labels`],
]
const NAMES = [
  'Receipt Scanner',
  'Inbox Zen',
  'Travel Tracker',
  'Signature Studio',
  'Lucidchart',
  'Calendly Sync',
  'Mail Merge Turbo',
  'Newsletter Digest',
  'Label Sorter',
  'Expense Robot',
  'Meeting Notes AI',
  'Contract Vault',
]

/**
 * Identity + Gmail: a colleague asks the admin which of their connected apps can read their mail; the admin looks at
 * their grants (Directory tokens.list) and replies in the thread naming exactly those apps.
 */
export const identityMailReaders: Family = {
  id: 'identity-mail-readers',
  services: ['identity', 'gmail'],
  multiApp: true,
  antiGaming:
    "Exactly one reply, to the colleague alone (copying anyone else discloses their apps), in their thread; everything a reader sees must name every app whose scopes read mail (full mail, readonly, modify) and none of the look-alikes (metadata-only, send-only, labels, calendar or Drive apps) nor another person's mail-reading app, so listing every app fails; revoking apps or any other change is collateral.",
  scenario:
    'The colleague has five or six connected apps: two or three that read mail, the rest with metadata, send-only, labels, calendar or Drive scopes. Another colleague has a mail-reading app of their own. The answer is in the scopes directory.tokens.list returns.',
  generate(seed) {
    const r = rng(seed * 6151 + 29)
    const c = company(r, 3)
    const [asker, other] = c.colleagues
    const names = r.sample(NAMES, 8)
    const nRead = r.int(2, 3)
    const reading = r.sample(READS, nRead).map((scopes, i) => ({ key: `r${i}`, name: names[i]!, scopes }))
    const looks = r.sample(NOT_READING, 3).map((scopes, i) => ({ key: `n${i}`, name: names[nRead + i]!, scopes }))
    const others = { key: 'o', name: names[7]!, scopes: [`${S}gmail.readonly`] }
    const clients = [...reading, ...looks, others]
    const grants = [
      ...r
        .shuffle([...reading, ...looks])
        .map((cl, i) => ({ user: asker!.id, client: cl.key, scopes: cl.scopes, created: `-${10 + i * 6}d` })),
      { user: other!.id, client: 'o', scopes: others.scopes, created: '-8d' },
    ]
    const users = c.users.map((u) => (u.id === c.actor.id ? { ...u, admin: true, title: 'IT Administrator' } : u))
    const subject = 'Which apps can read my email?'
    const messages = [
      {
        from: asker!.id,
        to: [c.actor.id],
        subject,
        text: `Hi ${c.actor.first},\n\nI have connected a bunch of apps to my Google account over the years. Which of them can actually read the contents of my email? Just reply with their names.\n\nThanks,\n${asker!.first}`,
        at: '-2h',
        thread: 'ask',
      },
      {
        from: other!.id,
        to: [c.actor.id],
        subject: 'Printer on 3rd floor',
        text: 'The printer is jammed again.',
        at: '-5h',
      },
    ]
    // Look first: the question (and the asker's address) is in the mailbox; then their connected apps.
    const search = [
      {
        tool: 'http_request',
        args: { method: 'GET', path: '/gmail/v1/users/me/messages', query: { q: `subject:"${subject}"` } },
        save: { mid: 'messages.0.id', tid: 'messages.0.threadId' },
      },
      {
        tool: 'http_request',
        args: { method: 'GET', path: '/gmail/v1/users/me/messages/{{mid}}', query: { format: 'metadata' } },
        save: { msgid: 'payload.headers[name=message-id].value', asker: 'payload.headers[name=from].value|email' },
      },
      { tool: 'http_request', args: { method: 'GET', path: '/admin/directory/v1/users/{{asker}}/tokens' } },
    ]
    const reply = (text: string) => ({
      tool: 'http_request',
      args: {
        method: 'POST',
        path: '/gmail/v1/users/me/messages/send',
        body: {
          raw: {
            $rfc822: {
              from: c.actor.email,
              to: '{{asker}}',
              subject: `Re: ${subject}`,
              text,
              inReplyTo: '{{msgid}}',
              references: '{{msgid}}',
            },
          },
          threadId: '{{tid}}',
        },
      },
    })
    const list = (xs: { name: string }[]) => xs.map((x) => x.name).join(', ')
    return {
      generatedBy: GENERATED_BY,
      id: `identity-mail-readers-${seed}`,
      family: 'identity-mail-readers',
      services: ['identity', 'gmail'],
      instruction: `You are the Google Workspace admin. ${asker!.name} emailed you asking which of the apps connected to their Google account can read the contents of their email. Check their connected apps with the Admin SDK Directory API and reply to them in the same thread naming exactly those apps. Do not change anything.`,
      actor: c.actor.id,
      seed: {
        ...baseSeed(c, `identity-mail-readers-${seed}`),
        users,
        identity: { clients: clients.map(({ key, name, scopes }) => ({ key, name, scopes })), grants },
        gmail: { messages },
      },
      oracle: {
        id: 'identity-mail-readers',
        params: {
          actor: c.actor.id,
          asker: asker!.email,
          subject,
          answers: reading.map((x) => x.name),
          wrong: [...looks, others].map((x) => x.name),
          allowed: [asker!.email],
        },
      },
      reference: [
        ...search,
        reply(`Hi ${asker!.first},\n\nThese apps can read your mail: ${list(reading)}.\n\n${c.actor.first}`),
      ],
      nearMisses: [
        {
          name: 'names every connected app',
          program: [...search, reply(`Apps connected to your account: ${list([...reading, ...looks])}.`)],
        },
        {
          name: 'counts the metadata, send-only and other apps too',
          program: [...search, reply(`These can read your mail: ${list([...reading, looks[0]!])}.`)],
        },
        { name: 'misses one', program: [...search, reply(`These can read your mail: ${list(reading.slice(1))}.`)] },
        {
          name: "adds the other colleague's app",
          program: [...search, reply(`These can read your mail: ${list([...reading, others])}.`)],
        },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['identity', 'gmail', 'reply', 'oauth-scopes', 'near-duplicate'],
    }
  },
}
