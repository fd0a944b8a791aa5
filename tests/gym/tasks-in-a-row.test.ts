import { describe, expect, it } from 'vitest'
import { createGym } from '../../gym/index.ts'
import { loadSample } from '../../gym/corpus.ts'
import { validateTask } from '../../gym/validate.ts'

/**
 * A validation worker validates task after task on one gym (gym/validate-worker.ts). Nothing a task leaves behind
 * in it (a cached template, a kept connection, a memo keyed by a connection) may change a later task's verdicts:
 * each must be the one a fresh gym gives (docs/decisions/0402, 0404). Two instances of one family are in the row,
 * apart: the same tables, statements and shapes, other rows.
 */
describe('validateTask', () => {
  it('gives every task of a row validated on one gym the verdicts a fresh gym gives it', async () => {
    const picks: [string, number][] = [
      ['customer-escalation', 2],
      ['gmail-label-sender', 3],
      ['drive-organize', 0],
      ['customer-escalation', 1],
      ['slack-pin-final', 1],
    ]
    const tasks = picks.map(([family, slot]) => loadSample(slot + 1, [family])[slot]!)
    const row = createGym({ tasks: [], reuseWorlds: true })
    try {
      for (const t of tasks) {
        const inRow = await validateTask(row, t)
        const fresh = createGym({ tasks: [], reuseWorlds: true })
        try {
          expect(inRow, t.id).toEqual(await validateTask(fresh, t))
        } finally {
          fresh.worlds.close()
        }
        expect(inRow.ok, t.id).toBe(true)
      }
    } finally {
      row.worlds.close()
    }
  }, 300_000)
})
