import type { OracleInput, OracleResult } from '../types.ts'
import { eventPart, fileByName, grantPart, invitePart, judgeParts, mailPart, postPart } from './long-horizon.ts'

export type OnboardingParams = {
  actor: string
  domain: string
  hire: string
  hireEmail: string
  hr: string
  buddy: string
  folderName: string
  channel: string
  subject: string
  startUtc: string
  durationMin: number
  hireFirst: string
  wrongFiles: string[]
}

/**
 * Onboarding a new hire, judged artifact by artifact: the team folder shared with the hire as reader (one grant, the
 * right folder), one welcome 1:1 on the final start date with exactly the hire and the buddy, exactly the hire added
 * to the team channel, one welcome post there mentioning the hire, one reply to HR in the thread (neither naming a
 * near-duplicate folder). Everything else is collateral; grants outside the domain are leaks.
 */
export function onboardingMovedStart({
  initial,
  final,
  diff,
  actions,
  params: p,
}: OracleInput<OnboardingParams>): OracleResult {
  const folder = String(fileByName(initial, p.folderName)?.id ?? '')
  return judgeParts(diff, [
    grantPart(initial, final, diff, { domain: p.domain, fileId: folder, emails: [p.hireEmail], roles: ['reader'] }),
    eventPart(diff, actions, {
      calendarId: `${p.actor}@${p.domain}`,
      startUtc: p.startUtc,
      durationMin: p.durationMin,
      attendees: [p.hireEmail, p.buddy],
    }),
    invitePart(initial, final, p.channel, [p.hire]),
    postPart(initial, final, diff, {
      actor: p.actor,
      where: p.channel,
      mustInclude: ['welcome'],
      mentions: [p.hire],
      wrong: p.wrongFiles,
    }),
    mailPart(initial, final, actions, {
      actor: p.actor,
      domain: p.domain,
      to: p.hr,
      mustInclude: [p.hireFirst],
      wrong: p.wrongFiles,
      threadSubject: p.subject,
    }),
  ])
}

/** Judges every grant itself (integrity.ts leaves them alone). */
onboardingMovedStart.judgesSharing = true as const
