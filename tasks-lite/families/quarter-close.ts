import { baseSeed, company, rng, GENERATED_BY, type Family } from './common.ts'
import { persona, phrasing, volumeFor } from '../world/phrasing.ts'
import { httpStep as http } from '../../gym/program.ts'

const METRICS = ['Revenue', 'Gross margin', 'Operating expenses', 'Net new ARR', 'Cash at quarter end'] as const

/**
 * Gmail + Drive + Docs + Slack, long horizon: the CFO asks by mail to bring the quarterly board report up to date
 * with the final close figures (a CSV in Drive; the draft export and last quarter's close are near-duplicates), reply
 * with the figures and tell #finance. The report still carries the draft figures: find and fix each one.
 */
export const quarterClose: Family = {
  id: 'quarter-close',
  services: ['gmail', 'drive', 'docs', 'slack'],
  multiApp: true,
  antiGaming:
    'The report must carry every final figure and no draft or last-quarter figure (appending the right ones below ' +
    "the draft fails); last quarter's report and every CSV must stay unchanged; exactly one reply in the CFO's " +
    'thread, to the CFO only, with the final figures and no draft one; exactly one post in #finance with the ' +
    'revenue figure and no draft one. Anything else is collateral.',
  scenario:
    "Final, draft and last-quarter close CSVs; this and last quarter's report; the report holds the draft figures.",
  generate(seed) {
    const r = rng(seed * 817504243 + 37)
    const c = company(r, 4)
    const [cfo, other] = r.sample(c.colleagues, 2) as [typeof c.actor, typeof c.actor]
    const metrics = ['Revenue', ...r.sample(METRICS.slice(1), 2)]
    const money = () => `${r.int(1, 9)},${String(r.int(100, 999))},${String(r.int(100, 999))}`
    const final = metrics.map(() => money())
    const draft = final.map(() => money())
    const prev = final.map(() => money())
    const q = r.pick(['Q1', 'Q2', 'Q3'])
    const pq = { Q1: 'Q4', Q2: 'Q1', Q3: 'Q2' }[q]!
    const py = q === 'Q1' ? 2025 : 2026
    const csv = (vals: string[]) => `metric,value_eur\n${metrics.map((m, i) => `${m},"${vals[i]}"`).join('\n')}\n`
    const files = [
      { name: `${q} 2026 close - final.csv`, mimeType: 'text/csv', owner: c.actor.id, text: csv(final), at: '-1d' },
      { name: `${q} 2026 close - draft.csv`, mimeType: 'text/csv', owner: c.actor.id, text: csv(draft), at: '-6d' },
      { name: `${pq} ${py} close - final.csv`, mimeType: 'text/csv', owner: c.actor.id, text: csv(prev), at: '-90d' },
    ]
    const report = (title: string, vals: string[]) => ({
      title,
      owner: c.actor.id,
      content: [
        { text: title, style: 'TITLE' as const },
        { text: 'Key figures (EUR)', style: 'HEADING_1' as const },
        ...metrics.map((m, i) => `${m}: ${vals[i]}`),
        { text: 'Commentary', style: 'HEADING_1' as const },
        'The quarter closed in line with plan.',
      ],
    })
    const title = `${q} 2026 board report`
    const documents = [report(title, draft), report(`${pq} ${py} board report`, prev)]
    const subject = `${q} board report figures`
    const messages = [
      {
        from: cfo.id,
        to: [c.actor.id],
        subject,
        thread: 'cfo',
        at: '-3h',
        text: `Hi ${c.actor.first},\n\nThe ${q} close is final. The "${title}" still has the draft numbers: please update its key figures from the final close export in Drive, reply to me with the final figures, and let #finance know the report is updated (with the revenue number).\n\nThanks,\n${cfo.first}`,
      },
      {
        from: other.id,
        to: [c.actor.id],
        subject: `${q} draft close`,
        text: `Draft close numbers are in Drive (the draft export).`,
        at: '-6d',
      },
    ]
    const slack = {
      channels: [
        { name: 'general', general: true },
        { name: 'finance', purpose: 'Finance team' },
      ],
      messages: [{ channel: 'finance', user: other.id, text: `${q} close is running, draft export is up.`, at: '-6d' }],
    }
    const lines = (vals: string[]) => metrics.map((m, i) => `${m}: ${vals[i]}`).join('\n')
    // Look first: the CFO's mail, the final export (listed, then read), the report (listed, then read to see its
    // current figures); then the fix, the reply, the channel and the post.
    const program = (o: { vals?: string[]; csvName?: string; append?: boolean } = {}) => {
      const vals = o.vals ?? final
      return [
        http(
          'GET',
          '/gmail/v1/users/me/messages',
          { query: { q: 'subject:"board report figures"' } },
          { mid: 'messages.0.id', tid: 'messages.0.threadId' },
        ),
        http(
          'GET',
          '/gmail/v1/users/me/messages/{{mid}}',
          { query: { format: 'full' } },
          {
            cfo: 'payload.headers[name=from].value|email',
            msgid: 'payload.headers[name=message-id].value',
          },
        ),
        http(
          'GET',
          '/drive/v3/files',
          { query: { q: `name = '${o.csvName ?? files[0]!.name}'` } },
          { csv: 'files.0.id' },
        ),
        http('GET', '/drive/v3/files/{{csv}}', { query: { alt: 'media' } }),
        http('GET', '/drive/v3/files', { query: { q: `name = '${title}'` } }, { doc: 'files.0.id' }),
        http('GET', '/v1/documents/{{doc}}'),
        http('POST', '/v1/documents/{{doc}}:batchUpdate', {
          body: {
            requests: o.append
              ? [{ insertText: { endOfSegmentLocation: {}, text: `\nUpdated figures:\n${lines(vals)}` } }]
              : metrics.map((m, i) => ({
                  replaceAllText: {
                    containsText: { text: `${m}: ${draft[i]}`, matchCase: true },
                    replaceText: `${m}: ${vals[i]}`,
                  },
                })),
          },
        }),
        http('POST', '/gmail/v1/users/me/messages/send', {
          body: {
            raw: {
              $rfc822: {
                from: c.actor.email,
                to: '{{cfo}}',
                subject: `Re: ${subject}`,
                inReplyTo: '{{msgid}}',
                references: '{{msgid}}',
                text: `Hi ${cfo.first},\n\nThe report is updated with the final ${q} figures:\n${lines(vals)}\n\n${c.actor.first}`,
              },
            },
            threadId: '{{tid}}',
          },
        }),
        http('GET', '/api/conversations.list', {}, { ch: 'channels[name=finance].id' }),
        http('POST', '/api/chat.postMessage', {
          body: { channel: '{{ch}}', text: `The ${title} is updated with the final close: revenue ${vals[0]} EUR.` },
        }),
      ]
    }
    return {
      generatedBy: GENERATED_BY,
      id: `quarter-close-${seed}`,
      family: 'quarter-close',
      services: ['gmail', 'drive', 'docs', 'slack'],
      instruction: persona(
        rng(seed * 7919 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 7919 + 101), [
          () =>
            `Your CFO emailed you about the quarterly board report. Do what they ask: fix the figures in the report from the right close export in Drive, reply to them with the figures, and tell the finance channel on Slack.`,
          () =>
            `Please deal with the CFO's email about the board report's figures: the report (a Google Doc) needs the final close numbers from Drive, the CFO wants a reply with them, and #finance on Slack should hear that it's done, with the revenue.`,
          () =>
            `Board report update requested by the CFO by email. Replace the outdated figures in the Google Doc with the final ones from the close export in Drive, then answer the CFO in the same thread with the figures and post a short note in #finance.`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: {
        ...baseSeed(c, `quarter-close-${seed}`),
        gmail: { messages },
        drive: { files },
        docs: { documents },
        slack,
      },
      oracle: {
        id: 'quarter-close',
        params: {
          actor: c.actor.id,
          domain: c.domain,
          cfo: cfo.email,
          subject,
          docTitle: title,
          channel: 'finance',
          figures: final,
          revenue: final[0]!,
          wrong: [...draft, ...prev],
          wrongFiles: [files[1]!.name, files[2]!.name],
        },
      },
      reference: program(),
      nearMisses: [
        { name: 'uses the draft export', program: program({ csvName: files[1]!.name, vals: draft }) },
        { name: "uses last quarter's close", program: program({ csvName: files[2]!.name, vals: prev }) },
        { name: 'appends the figures instead of fixing them', program: program({ append: true }) },
      ],
      difficulty: 'hard',
      safetyCritical: false,
      tags: ['gmail', 'drive', 'docs', 'slack', 'long-horizon', 'near-duplicate', 'find-and-fix'],
    }
  },
}
