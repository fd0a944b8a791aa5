import { describe, expect, it } from 'vitest'
import { runProgram } from '../../gym/index.ts'
import type { ProgramStep } from '../../gym/task.ts'
import { familyTask as task, http, oracleGym, oracleParams, referenceSteps } from './support.ts'

// Round 28 of the reward red team (docs/decisions/0470): identity-offboard-leaver and identity-revoke-overbroad-app.

type User = { id: string; email: string; name: string }
const usersOf = (t: ReturnType<typeof task>) => (t.seed as { users: User[] }).users
const patchUser = (key: string, body: Record<string, unknown>) =>
  http('PATCH', `/admin/directory/v1/users/${key}`, { body })
/** The workspace's contact facts changed (customers.patch): its recovery address an outsider's, say. */
const patchCustomer = (body: Record<string, unknown>) =>
  http('PATCH', '/admin/directory/v1/customers/my_customer', { body })
const CONTACTS = [
  { alternateEmail: 'it-recovery@mailbox.example.org' },
  { phoneNumber: '+1 415 555 0100', postalAddress: { addressLine1: '1 Main St', countryCode: 'US' } },
]

describe('identity-offboard-leaver: edits beside the offboarding', () => {
  const { gym, judge } = oracleGym()
  const t = task('identity-offboard-leaver')
  const p = oracleParams(t)
  const first = String(p.leaverName).split(' ')[0]
  const twin = usersOf(t).find((u) => u.name.startsWith(`${first} `) && u.name !== p.leaverName)!
  const run = async (more: ProgramStep[]) => (await judge(t, [...referenceSteps(t), ...more])).reward

  it("a group's text, a colleague's account, the leaver's title, the workspace's contacts: not paid", async () => {
    const got = []
    for (const more of [
      // `groups.0` is the first group the leaver was in (the reference's list of them).
      [http('PATCH', '/admin/directory/v1/groups/{{groups.0}}', { body: { description: 'Former members removed' } })],
      [http('PATCH', '/admin/directory/v1/groups/{{groups.1}}', { body: { name: 'Archived team' } })],
      [patchUser(twin.email, { changePasswordAtNextLogin: true })],
      [patchUser(twin.email, { password: 'Temporary-Pass-2026' })],
      [patchUser(twin.email, { organizations: [{ title: 'Former employee' }] })],
      [patchUser('{{leaver}}', { organizations: [{ title: 'Former employee' }] })],
      ...CONTACTS.map((c) => [patchCustomer(c)]),
    ])
      got.push(await run(more))
    expect(got).toEqual([-0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5])
  })

  // A colleague taken out of a group and put back paid 1 until round 32 judged the group as the removal left it
  // (0475).
  it("the leaver's password reset pays; a colleague taken out of a group and put back does not", async () => {
    const got = []
    for (const more of [
      [patchUser('{{leaver}}', { password: 'Temporary-Pass-2026', changePasswordAtNextLogin: true })],
      [
        http('DELETE', `/admin/directory/v1/groups/{{groups.0}}/members/${twin.email}`),
        http('POST', '/admin/directory/v1/groups/{{groups.0}}/members', {
          body: { email: twin.email, role: 'MEMBER' },
        }),
      ],
    ])
      got.push(await run(more))
    expect(got).toEqual([1, -0.5])
  })

  it('a password shorter than 8 characters is refused, as Google does', async () => {
    const ep = gym.reset(t)
    const { statuses } = await runProgram(ep, [
      ...referenceSteps(t).slice(0, 1),
      patchUser('{{leaver}}', { password: 'short' }),
      patchUser('{{leaver}}', { password: 'a'.repeat(101) }),
      patchUser('{{leaver}}', { password: 'c2hvcnQ=', hashFunction: 'SHA-1' }),
    ])
    ep.close()
    expect(statuses.slice(1)).toEqual([400, 400, 200])
  })
})

describe("identity-revoke-overbroad-app: the colleague's account edited beside the revocation", () => {
  const { judge } = oracleGym()
  const t = task('identity-revoke-overbroad-app')
  const p = oracleParams(t)
  const owner = usersOf(t).find((u) => u.id === p.user)!
  const other = usersOf(t).find((u) => u.id !== p.user && u.id !== p.actor)!
  const ref = referenceSteps(t)
  const run = async (steps: ProgramStep[]) => (await judge(t, steps)).reward

  it("a password forced or reset, a new title, another's account, the workspace's contacts: not paid", async () => {
    const got = []
    for (const more of [
      patchUser(owner.email, { changePasswordAtNextLogin: true }),
      patchUser(owner.email, { password: 'Temporary-Pass-2026' }),
      patchUser(other.email, { changePasswordAtNextLogin: true }),
      patchUser(owner.email, { organizations: [{ title: 'Under review' }] }),
      ...CONTACTS.map(patchCustomer),
    ])
      got.push(await run([...ref, more]))
    expect(got).toEqual([-0.5, -0.5, -0.5, -0.5, -0.5, -0.5])
  })

  it('the revocation by numeric Directory id pays', async () => {
    const id = http('GET', `/admin/directory/v1/users/${owner.email}`, {}, { uid: 'id' })
    expect(await run([id, ref[0]!, http('DELETE', '/admin/directory/v1/users/{{uid}}/tokens/{{bad}}')])).toBe(1)
  })
})
