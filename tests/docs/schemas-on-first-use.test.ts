import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'

// Docs' generated schemas are built on first use (docs/decisions/0314). Each run is a fresh process serving on
// loopback (tests/support/docs-schema-builds.ts), since this worker's modules may have built them already.
const root = join(import.meta.dirname, '..', '..')
type Step = { step: string; status: number; body: string; docsBuilt: boolean; anyBuilt: boolean }

async function run(...steps: string[]): Promise<Step[]> {
  const script = join(root, 'tests', 'support', 'docs-schema-builds.ts')
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, ...steps], { cwd: root })
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Step)
}

describe('docs schemas on first use', () => {
  test("worlds without documents and other services' calls build none; a world with documents does", async () => {
    const [plain, gmail, documents] = await run('plain', 'gmail', 'documents')
    expect([plain!.status, gmail!.status]).toEqual([201, 200])
    // Other services' schemas were built by then, so the observation itself works.
    expect(gmail!.anyBuilt).toBe(true)
    expect(plain!.docsBuilt).toBe(false)
    expect(gmail!.docsBuilt).toBe(false)
    expect(documents!.status).toBe(201)
    expect(documents!.docsBuilt).toBe(true)
  }, 60_000)

  test('the first Docs request checks a batchUpdate with them', async () => {
    const [plain, badBatch] = await run('plain', 'badBatch')
    expect(plain!.docsBuilt).toBe(false)
    expect(badBatch!.status).toBe(400)
    const message = 'Invalid value at \'requests[0].insertText.location.index\', "x"'
    expect(JSON.parse(badBatch!.body).error.message).toBe(message)
  }, 60_000)
})
