import {
  BG_LABELS,
  BG_NEWSLETTERS,
  BG_NOTIFIERS,
  BG_PARTNERS,
  BG_PROJECTS,
  BG_REPLIES,
  BG_TOPICS,
  BG_FILE_STEMS,
} from './vocab.ts'
import { addr, ago, DAY, type SeedUser, type WorldCtx } from './context.ts'

type Mail = {
  from: string
  to: string[]
  cc?: string[]
  subject: string
  text: string
  at: string
  thread?: string
  unread?: boolean
  starred?: boolean
  labels?: string[]
  headers?: Record<string, string>
  attachments?: { filename: string; mimeType: string; text: string }[]
}

const CITIES = ['Lisbon', 'Montreal', 'Osaka', 'Tallinn', 'Valencia', 'Edinburgh', 'Ljubljana']
const ASKS = [
  'proposal for the spring workshop',
  'print proofs for the brochure',
  'venue options for the summit',
  'candidate shortlist',
  'translation of the onboarding guide',
  'quote for the office move',
  'storyboard for the explainer video',
]

/** Background mail for every world user: internal threads with replies, newsletters, notifications, outside threads. */
export function backgroundMail(ctx: WorldCtx): { labels: { user: string; name: string }[]; messages: Mail[] } {
  const out: Mail[] = []
  for (const u of ctx.users) {
    const share = u.id === ctx.actor.id ? 1 : ctx.vol.othersShare
    const n = (x: number) => Math.max(x > 0 ? 1 : 0, Math.round(x * share))
    out.push(...internal(ctx, u, n(ctx.vol.threads)), ...newsletters(ctx, u, n(ctx.vol.newsletters)))
    out.push(...notifications(ctx, u, n(ctx.vol.notifications)), ...external(ctx, u, n(ctx.vol.external)))
  }
  const labels = backgroundLabels(ctx)
  const kept = new Set(labels.map((l) => l.name))
  return {
    labels,
    messages: out
      // A world user's id in `from` is not text the agent searches; outside senders' names and domains are.
      .filter((m) => !ctx.collides([m.from.includes('<') ? m.from : '', m.subject, m.text, ...files(m)].join(' ')))
      .map((m) => (m.labels ? { ...m, labels: m.labels.filter((l) => kept.has(l)) } : m)),
  }
}

const files = (m: Mail) => (m.attachments ?? []).map((a) => a.filename)

/** The background's user labels for every world user, except names the plants use (or that mention a plant). */
export function backgroundLabels(ctx: WorldCtx): { user: string; name: string }[] {
  const names = Object.values(BG_LABELS).filter((n) => !ctx.collides(n) && !ctx.takenLabels.has(n.toLowerCase()))
  return ctx.users.flatMap((u) => names.map((name) => ({ user: u.id, name })))
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
/** A small attachment: a PDF-like text, a CSV or a PNG-named placeholder. */
function attachment(ctx: WorldCtx, project: string) {
  const stem = ctx.r.pick(BG_FILE_STEMS)
  const kind = ctx.r.int(0, 2)
  const base = `${slug(project)}-${slug(stem)}`
  if (kind === 0)
    return { filename: `${base}.pdf`, mimeType: 'application/pdf', text: `%PDF-1.4\n% ${project} ${stem}\n%%EOF` }
  if (kind === 1)
    return {
      filename: `${base}.csv`,
      mimeType: 'text/csv',
      text: `week,value\n1,${ctx.r.int(10, 99)}\n2,${ctx.r.int(10, 99)}\n`,
    }
  return { filename: `${base}.png`, mimeType: 'image/png', text: `PNG placeholder for ${project} ${stem}` }
}

function internal(ctx: WorldCtx, u: SeedUser, count: number): Mail[] {
  const { r } = ctx
  const out: Mail[] = []
  for (let t = 0; t < count; t++) {
    const project = r.pick(BG_PROJECTS)
    const [topic, body] = r.pick(BG_TOPICS)
    const peer = r.pick(ctx.coworkers)
    const third = r.pick(ctx.coworkers)
    const subject = `${project}: ${topic}`
    const thread = `bg-${u.id}-int-${t}`
    let at = r.int(60, 80 * DAY)
    const startsWithMe = r.next() < 0.3
    const cc = third.email !== peer.email && r.next() < 0.4 ? [addr(third)] : []
    out.push({
      from: startsWithMe ? u.id : addr(peer),
      to: [startsWithMe ? addr(peer) : u.id],
      cc,
      subject,
      thread,
      text: `Hi,\n\n${body}\n\n${startsWithMe ? '' : peer.first}`.trimEnd(),
      at: ago(at),
      unread: r.next() < 0.2,
      starred: r.next() < 0.05,
      ...(r.next() < 0.25 ? { attachments: [attachment(ctx, project)] } : {}),
    })
    const replies = r.int(0, 4)
    for (let k = 0; k < replies && at > 30; k++) {
      at = r.int(Math.max(1, Math.floor(at / 3)), at - 1)
      const mine = (k % 2 === 0) === !startsWithMe
      out.push({
        from: mine ? u.id : addr(peer),
        to: [mine ? addr(peer) : u.id],
        cc,
        subject: `Re: ${subject}`,
        thread,
        text: r.pick(BG_REPLIES),
        at: ago(at),
        unread: !mine && r.next() < 0.25,
      })
    }
  }
  return out
}

function newsletters(ctx: WorldCtx, u: SeedUser, count: number): Mail[] {
  const { r } = ctx
  return Array.from({ length: count }, (_, i) => {
    const nl = BG_NEWSLETTERS[i % BG_NEWSLETTERS.length]!
    const issue = 100 + Math.floor(i / BG_NEWSLETTERS.length)
    const theme = r.pick(nl.themes)
    return {
      from: addr(nl),
      to: [u.id],
      subject: `${nl.name} #${issue}: ${theme}`,
      text:
        `This week in ${nl.name}: ${theme}, three reader questions and a tool we like.\n\n` +
        'Unsubscribe any time from your preferences page.',
      at: ago(r.int(30, 100 * DAY)),
      unread: r.next() < 0.6,
      labels: [BG_LABELS.newsletter],
      headers: {
        'List-Id': `${nl.name} <${nl.list}>`,
        'List-Unsubscribe': `<mailto:unsubscribe@${nl.email.split('@')[1]}>`,
      },
    }
  })
}

function notifications(ctx: WorldCtx, u: SeedUser, count: number): Mail[] {
  const { r } = ctx
  return Array.from({ length: count }, () => {
    const nt = r.pick(BG_NOTIFIERS)
    const project = r.pick(BG_PROJECTS)
    const num = r.int(100, 9999)
    const key = `${project.slice(0, 3).toUpperCase()}-${num}`
    const [subject, text] =
      nt.kind === 'ci'
        ? [
            `[${project.toLowerCase()}] Build #${num} ${r.pick(['passed', 'failed', 'was fixed'])} on main`,
            `Pipeline for ${project.toLowerCase()} finished in ${r.int(3, 40)} minutes. See the build log.`,
          ]
        : nt.kind === 'tracker'
          ? [
              `[${key}] ${r.pick(BG_FILE_STEMS)} moved to ${r.pick(['In progress', 'Done', 'Blocked', 'In QA'])}`,
              `${r.pick(ctx.coworkers).name} changed the status of ${key}.`,
            ]
          : nt.kind === 'expense'
            ? [
                `Expense report ER-${num} was reimbursed`,
                `Your expense report ER-${num} (${r.int(12, 480)}.00) has been reimbursed to your account.`,
              ]
            : nt.kind === 'travel'
              ? [
                  `Itinerary: ${r.pick(CITIES)}, ${r.int(2, 5)} nights`,
                  `Your trip is booked. Check-in opens 24 hours before departure. Reference ${key}.`,
                ]
              : [
                  `[${project.toLowerCase()}-service] Pull request #${num}: ${r.pick(BG_FILE_STEMS)} cleanup`,
                  `${r.pick(ctx.coworkers).name} requested your review on pull request #${num}.`,
                ]
    return {
      from: addr(nt),
      to: [u.id],
      subject,
      text,
      at: ago(r.int(10, 60 * DAY)),
      unread: r.next() < 0.3,
      ...(nt.kind === 'expense' ? { labels: [BG_LABELS.expense] } : {}),
      ...(nt.kind === 'travel' ? { labels: [BG_LABELS.travel] } : {}),
      headers: { 'Auto-Submitted': 'auto-generated' },
    }
  })
}

function external(ctx: WorldCtx, u: SeedUser, count: number): Mail[] {
  const { r } = ctx
  const out: Mail[] = []
  for (let t = 0; t < count; t++) {
    const p = r.pick(BG_PARTNERS)
    const first = ctx.coworkers[(t * 7 + 3) % ctx.coworkers.length]!.first
    const contact = { name: `${first} ${p.company.split(' ')[0]}`, email: `${first.toLowerCase()}@${p.domain}` }
    const ask = r.pick(ASKS)
    const subject = `${p.company}: ${ask}`
    const thread = `bg-${u.id}-ext-${t}`
    let at = r.int(120, 90 * DAY)
    out.push({
      from: addr(contact),
      to: [u.id],
      subject,
      thread,
      text:
        `Hello,\n\nAs discussed, here is the ${ask}. Let us know what you think.\n\n` +
        `Kind regards,\n${contact.name}\n${p.company}`,
      at: ago(at),
      unread: r.next() < 0.2,
      ...(r.next() < 0.4 ? { attachments: [attachment(ctx, r.pick(BG_PROJECTS))] } : {}),
    })
    if (r.next() < 0.7 && at > 60) {
      at = r.int(30, at - 1)
      out.push({
        from: u.id,
        to: [addr(contact)],
        subject: `Re: ${subject}`,
        thread,
        text: `Thank you, this looks good. ${r.pick(BG_REPLIES)}`,
        at: ago(at),
        unread: false,
      })
    }
  }
  return out
}
