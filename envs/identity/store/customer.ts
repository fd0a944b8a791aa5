import { getMeta } from '../../core/clock.ts'
import type { Db } from '../../core/db.ts'

/** The world_meta key of the customer's editable contact facts (a JSON object). */
export const CUSTOMER_META = 'identity.customer'

export const ADDRESS_FIELDS = [
  'addressLine1',
  'addressLine2',
  'addressLine3',
  'contactName',
  'countryCode',
  'locality',
  'organizationName',
  'postalCode',
  'region',
] as const

/** The contact facts an admin sets on the workspace's customer (`customers.patch/update`). */
export type Contact = {
  alternateEmail?: string
  phoneNumber?: string
  language?: string
  postalAddress?: Partial<Record<(typeof ADDRESS_FIELDS)[number], string>>
}

export const contactOf = (db: Db): Contact => JSON.parse(getMeta(db, CUSTOMER_META) ?? '{}') as Contact
