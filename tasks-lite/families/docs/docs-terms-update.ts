import { baseSeed, company, rng, GENERATED_BY, type Family, MONTHS } from '../common.ts'
import { docs, driveList, phrase, volumeOf } from '../dds/kit.ts'

const VENDORS = [
  'Northbeam Logistics',
  'Quillon Software',
  'Marlow Facilities',
  'Tessera Data',
  'Brightline Media',
  'Corvid Security',
  'Halden Print',
  'Orchard Payroll',
]
const date = (d: number, m: number, y: number) => `${MONTHS[m]} ${d}, ${y}`
const money = (n: number) => `$${n.toLocaleString('en-US')}`

/**
 * Docs structure: update a vendor summary's terms table (two cells) and the renewal sentence that a named range marks,
 * keeping the named range; the old date also appears in the review history, and another vendor's summary is a
 * near-duplicate document.
 */
export const docsTermsUpdate: Family = {
  id: 'docs-terms-update',
  services: ['docs', 'drive'],
  multiApp: false,
  antiGaming:
    "Two table cells and the named range's text must hold the new values and nothing else in the document may change: replacing every occurrence of the old date also rewrites the review history line (collateral), retyping the sentence without replaceNamedRangeContent loses the named range, editing the wrong row or the other vendor's summary fails, and appending the new values leaves the old ones in place; the rest of the document (styles, other tabs, headers and footers, the table's shape) must stay as it was, so striking a paragraph through or adding a tab fails.",
  scenario:
    "A vendor summary doc: a title, the renewal sentence (a named range `renewal_date` holds the date), a two-column terms table (renewal date, annual fee, notice period, payment terms) and a review history line that repeats the old renewal date. Another vendor's summary has the same layout. The agent reads the document JSON, edits the two cells by index (delete then insert, bottom row first) and replaces the named range's content.",
  generate(seed) {
    const r = rng(seed * 2654435761 + 71)
    const c = company(r)
    const [vendor, otherVendor] = r.sample(VENDORS, 2)
    const year = 2026 + r.int(0, 1)
    const oldMonth = r.int(0, 11)
    const oldDate = date(r.int(1, 28), oldMonth, year)
    const newDate = date(r.int(1, 28), (oldMonth + r.int(1, 4)) % 12, year + (oldMonth > 8 ? 1 : 0))
    const oldFee = r.int(18, 90) * 1000
    const newFee = oldFee + r.int(1, 9) * 500
    const notice = `${r.pick([30, 60, 90])} days`
    const terms = r.pick(['Net 30', 'Net 45', 'Net 60'])
    const title = (v: string) => `Vendor summary - ${v}`
    const sentence = (v: string, d: string) => `This agreement with ${v} renews on ${d}.`
    const rowsFor = (d: string, fee: number) => {
      const rows = [
        ['Renewal date', d],
        ['Annual fee', money(fee)],
        ['Notice period', notice],
        ['Payment terms', terms],
      ]
      return r.int(0, 1) === 1 ? [rows[1]!, rows[0]!, rows[2]!, rows[3]!] : rows
    }
    const rows = rowsFor(oldDate, oldFee)
    const doc = (v: string, d: string, fee: number, tableRows: string[][]) => ({
      title: title(v),
      owner: c.actor.id,
      content: [
        { text: title(v), style: 'TITLE' as const },
        sentence(v, d),
        { text: 'Terms', style: 'HEADING_1' as const },
        { table: [['Term', 'Value'], ...tableRows] },
        { text: 'History', style: 'HEADING_1' as const },
        `Last reviewed by Procurement; renewal was confirmed for ${d}. Fee at review: ${money(fee)}.`,
      ],
      namedRanges: [{ name: 'renewal_date', text: d }],
    })
    const otherRows = rowsFor(oldDate, oldFee + 2000)
    const documents = [doc(otherVendor!, oldDate, oldFee + 2000, otherRows), doc(vendor!, oldDate, oldFee, rows)]
    const instruction = phrase(seed, r, [
      `${vendor}'s contract now renews on ${newDate} and the annual fee went up to ${money(newFee)}. Update their vendor summary in Google Docs: the Renewal date and Annual fee rows of the terms table, and the renewal sentence at the top (its date sits in the named range "renewal_date"; keep that named range). Leave the review history as it is.`,
      `Please bring the Vendor summary for ${vendor} up to date: new annual fee ${money(newFee)}, new renewal date ${newDate}. Change the two table rows and the "renews on" sentence (the date there is the named range renewal_date, which other tools read, so it must stay). The History section records the past and must not change.`,
      `Docs edit: in "Vendor summary - ${vendor}", set Annual fee to ${money(newFee)} and Renewal date to ${newDate} in the terms table, and replace the date in the named range renewal_date with ${newDate}. Nothing else in the doc changes (the history line keeps the old date).`,
    ])
    const cell = (term: string) =>
      `body.content[table.columns=2].table.tableRows[tableCells.0.content.0.paragraph.elements.0.textRun.content~=${term}].tableCells.1.content.0.paragraph.elements.0`
    const look = (t: string) => [
      driveList(`name contains 'Vendor summary' and mimeType = 'application/vnd.google-apps.document'`, {
        doc: `files[name=${t}].id`,
      }),
      docs(
        'GET',
        '/{{doc}}',
        {},
        {
          dateFrom: `${cell('Renewal date')}.startIndex`,
          dateTo: `${cell('Renewal date')}.endIndex`,
          feeFrom: `${cell('Annual fee')}.startIndex`,
          feeTo: `${cell('Annual fee')}.endIndex`,
        },
      ),
    ]
    // A cell's text ends before its paragraph mark (endIndex - 1); the later row is edited first so indexes hold.
    const setCell = (from: string, to: string, text: string) => [
      { deleteContentRange: { range: { startIndex: `{{${from}}}`, endIndex: `{{${to}-1}}` } } },
      { insertText: { location: { index: `{{${from}}}` }, text } },
    ]
    const feeFirst = rows[0]![0] === 'Renewal date'
    const cellEdits = (fee: string, d: string) =>
      feeFirst
        ? [...setCell('feeFrom', 'feeTo', fee), ...setCell('dateFrom', 'dateTo', d)]
        : [...setCell('dateFrom', 'dateTo', d), ...setCell('feeFrom', 'feeTo', fee)]
    const batch = (requests: unknown[]) => docs('POST', '/{{doc}}:batchUpdate', { body: { requests } })
    const named = (text: string) => ({ replaceNamedRangeContent: { namedRangeName: 'renewal_date', text } })
    const replaceAll = (from: string, to: string) => ({
      replaceAllText: { containsText: { text: from, matchCase: true }, replaceText: to },
    })
    return {
      generatedBy: GENERATED_BY,
      id: `docs-terms-update-${seed}`,
      family: 'docs-terms-update',
      services: ['docs', 'drive'],
      instruction,
      actor: c.actor.id,
      seed: { ...baseSeed(c, `docs-terms-update-${seed}`), docs: { documents } },
      world: volumeOf(seed),
      maxObservationChars: 40_000,
      oracle: {
        id: 'docs-terms-update',
        params: {
          actor: c.actor.id,
          title: title(vendor!),
          cells: { 'Renewal date': newDate, 'Annual fee': money(newFee) },
          namedRange: 'renewal_date',
          text: newDate,
          sentence: { from: sentence(vendor!, oldDate), to: sentence(vendor!, newDate) },
        },
      },
      reference: [...look(title(vendor!)), batch([...cellEdits(money(newFee), newDate), named(newDate)])],
      nearMisses: [
        {
          name: 'replaces every occurrence of the old date and fee',
          program: [
            ...look(title(vendor!)),
            batch([replaceAll(oldDate, newDate), replaceAll(money(oldFee), money(newFee))]),
          ],
        },
        {
          name: "edits the other vendor's summary",
          program: [...look(title(otherVendor!)), batch([...cellEdits(money(newFee), newDate), named(newDate)])],
        },
        {
          name: 'updates the table only',
          program: [...look(title(vendor!)), batch(cellEdits(money(newFee), newDate))],
        },
        {
          name: 'swaps the two values',
          program: [...look(title(vendor!)), batch([...cellEdits(newDate, money(newFee)), named(newDate)])],
        },
        {
          name: 'retypes the sentence and drops the named range',
          program: [
            ...look(title(vendor!)),
            batch([...cellEdits(money(newFee), newDate), replaceAll(`renews on ${oldDate}`, `renews on ${newDate}`)]),
          ],
        },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['docs', 'structure', 'tables', 'named-ranges', 'near-duplicate'],
    }
  },
}
