import type { Family } from './common.ts'
import { gmailReplyPo } from './gmail-reply-po.ts'
import { gmailLabelSender } from './gmail-label-sender.ts'
import { driveLockdown } from './drive-lockdown.ts'
import { gmailDriveInvoice } from './gmail-drive-invoice.ts'
import { gmailDocsCorrection } from './gmail-docs-correction.ts'
import { gmailDriveShareRequest } from './gmail-drive-share-request.ts'

export type { Family } from './common.ts'

/** Every task family, in a stable order. */
export const families: Family[] = [gmailReplyPo, gmailLabelSender, driveLockdown, gmailDriveInvoice, gmailDocsCorrection, gmailDriveShareRequest]
