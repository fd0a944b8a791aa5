import type { Fuzz, Op } from './engine.ts'
import { FUZZ_SEED } from './engine.ts'
import { changes, check, drive, email, m, make, other, ownersSetup, reason, share } from './ops-owners.ts'

// Ownership transfer between consumer accounts (docs/decisions/0456): Ann and Ben are gmail.com users. A direct
// transfer needs consent (403); the owner asks the other side's writer permission to be `pendingOwner` (by update
// or create), may withdraw it, and the pending owner accepts by making their own permission `owner` (update or
// create, transferOwnership). Refused on the way: the other side asking for itself, accepting unasked, a grant to
// the owner's own address. `check` (ops-owners.ts) also compares `canAcceptOwnership` with the pending request.

/** The same users as FUZZ_SEED, as consumer accounts. */
export const CONSUMER_SEED = {
  ...FUZZ_SEED,
  users: FUZZ_SEED.users.map((u) => ({ ...u, email: u.email.replace(/@.*$/, '@gmail.com') })),
}

export async function consumerSetup(f: Fuzz): Promise<void> {
  m(f).consumer = true
  await ownersSetup(f)
}

const expect403 = (f: Fuzz, r: { status: number; data: unknown }, want: string, what: string) =>
  f.equal([r.status, reason(r.data)], [403, want], what)

async function transfer(f: Fuzz): Promise<void> {
  const ids = Object.keys(m(f).files)
  if (!ids.length) return make(f)
  const id = f.rng.pick(ids)
  const file = m(f).files[id]!
  const to = other(file.owner)
  const draw = f.rng.int(10)
  if (draw === 0) {
    const target = f.rng.chance(0.3) ? 'zed@elsewhere.example' : email(f, to)
    const r = await f.google(`direct transfer to ${target}`, true, () =>
      drive(f, file.owner).permissions.create({
        fileId: id,
        transferOwnership: true,
        requestBody: { type: 'user', role: 'owner', emailAddress: target },
      }),
    )
    return expect403(f, r, 'consentRequiredForOwnershipTransfer', 'a direct transfer between consumer accounts')
  }
  if (draw === 1) {
    // A grant to the owner's own address, by the owner or a writer: refused, the owner's permission untouched.
    const by = file.writer[to] && f.rng.chance(0.5) ? to : file.owner
    const r = await f.google(`grant to the owner by ${by}`, true, () =>
      drive(f, by).permissions.create({
        fileId: id,
        sendNotificationEmail: false,
        requestBody: { type: 'user', role: f.rng.pick(['reader', 'writer']), emailAddress: email(f, file.owner) },
      }),
    )
    return expect403(f, r, 'forbidden', "a grant to the owner's own address")
  }
  const mine = file.writer[to]
  if (!mine) return share(f, id, file)
  if (draw === 2) {
    const r = await f.google('the writer asks for itself', true, () =>
      drive(f, to).permissions.update({ fileId: id, permissionId: mine, requestBody: { pendingOwner: true } }),
    )
    return expect403(f, r, 'insufficientFilePermissions', 'a writer marking itself pending')
  }
  if (!file.pending && draw <= 4) return accept(f, id, false)
  if (!file.pending) {
    const byCreate = f.rng.chance(0.4)
    const r = await f.google(`ask ${to} (${byCreate ? 'create' : 'update'})`, true, () =>
      byCreate
        ? drive(f, file.owner).permissions.create({
            fileId: id,
            fields: '*',
            sendNotificationEmail: f.rng.chance(0.5),
            requestBody: { type: 'user', role: 'writer', emailAddress: email(f, to), pendingOwner: true },
          })
        : drive(f, file.owner).permissions.update({
            fileId: id,
            permissionId: mine,
            fields: '*',
            requestBody: { pendingOwner: true, ...(f.rng.chance(0.5) ? { role: 'writer' } : {}) },
          }),
    )
    f.check(r.ok, () => `asking: ${r.status} ${JSON.stringify(r.data)}`)
    f.equal([r.data.id, r.data.role, r.data.pendingOwner], [mine, 'writer', true], 'the pending permission')
    file.pending = to
    return
  }
  if (draw <= 4) {
    const r = await f.google('withdraw', true, () =>
      drive(f, file.owner).permissions.update({
        fileId: id,
        permissionId: mine,
        fields: '*',
        requestBody: { pendingOwner: false },
      }),
    )
    f.check(r.ok, () => `withdrawing: ${r.status} ${JSON.stringify(r.data)}`)
    f.equal([r.data.role, r.data.pendingOwner], ['writer', false], 'the withdrawn permission')
    file.pending = undefined
    return
  }
  return accept(f, id, true)
}

/** The other side makes its own permission the owner's: taken when asked, refused (403) when not. */
async function accept(f: Fuzz, id: string, asked: boolean): Promise<void> {
  const file = m(f).files[id]!
  const to = other(file.owner)
  const mine = file.writer[to]!
  const byCreate = f.rng.chance(0.5)
  const r = await f.google(
    `accept by ${to} (${byCreate ? 'create' : 'update'}, ${asked ? '' : 'not '}asked)`,
    true,
    () =>
      byCreate
        ? drive(f, to).permissions.create({
            fileId: id,
            transferOwnership: true,
            fields: '*',
            requestBody: { type: 'user', role: 'owner', emailAddress: email(f, to) },
          })
        : drive(f, to).permissions.update({
            fileId: id,
            permissionId: mine,
            transferOwnership: true,
            fields: '*',
            requestBody: { role: 'owner' },
          }),
  )
  if (!asked) return expect403(f, r, 'insufficientFilePermissions', 'accepting unasked')
  f.check(r.ok, () => `accepting: ${r.status} ${JSON.stringify(r.data)}`)
  f.equal([r.data.id, r.data.role, r.data.pendingOwner], [mine, 'owner', false], 'the accepted permission')
  const was = file.owner
  const list = await f.google('permissions.list', false, () =>
    drive(f, to).permissions.list({ fileId: id, fields: 'permissions(id,role,emailAddress,pendingOwner)' }),
  )
  f.check(list.ok, () => `permissions.list: ${list.status}`)
  const perms = (list.data.permissions ?? []).map((p) => [p.emailAddress, p.role, p.pendingOwner]).sort()
  const want = [
    [email(f, was), 'writer', false],
    [email(f, to), 'owner', false],
  ].sort()
  f.equal(perms, want, `permissions after ${to} accepted ${id}`)
  file.writer = { [was]: list.data.permissions!.find((p) => p.emailAddress === email(f, was))!.id! }
  file.owner = to
  file.pending = undefined
  for (const w of ['ann', 'ben'] as const) m(f).marks[w].changed.push(id)
}

export const ownersConsumerOps: Op[] = [
  { name: 'consumer.make', weight: 2, run: make },
  { name: 'consumer.transfer', weight: 6, run: transfer },
  { name: 'consumer.check', weight: 2, run: check },
  { name: 'consumer.changes', weight: 1, run: changes },
]
