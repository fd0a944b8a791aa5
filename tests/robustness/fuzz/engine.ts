import { google, type calendar_v3, type drive_v3, type gmail_v1 } from 'googleapis'
import type { WebClient } from '@slack/web-api'
import { startSdkServer, type SdkServer } from '../../sdk/server.ts'
import { createControlApp } from '../../../server/control/app.ts'
import { diffStates, type WorldState } from '../../../envs/core/diff.ts'
import { Rng } from './rng.ts'
import { gmailSeed } from '../../gmail/fixtures.ts'
import type { DmModel } from './ops-dms.ts'
import type { GroupModel } from './ops-groups.ts'
import type { SeriesModel } from './ops-series.ts'
import type { DrivesModel } from './ops-drives.ts'
import type { DocStructModel } from './ops-docs2.ts'
import type { OwnersModel } from './ops-owners.ts'
import type { DocSegsModel } from './ops-docs3.ts'
import type { DocTabsModel } from './ops-tabs.ts'
import type { DocBatchModel } from './ops-docs4.ts'

// A seeded, model-based sequence fuzzer: random runs of mostly valid calls through the official clients against
// one served world, with invariants checked after every step (docs/decisions/0442).

export const FUZZ_SEED = {
  name: 'fuzz',
  now: '2026-03-10T15:00:00Z',
  users: gmailSeed.users,
  slack: { channels: [{ name: 'general', members: 'all' }] },
}

const ADMIN = 'fuzz-admin'
export class FuzzFailure extends Error {}

export type Model = {
  gmail: { labels: Record<string, string>; msgs: Record<string, { threadId: string; labels: string[] }> }
  drafts: Record<string, string>
  drive: { root: string; files: Record<string, { name: string; parent: string; folder: boolean; trashed: boolean }> }
  calendar: Record<
    string,
    { summary: string; count: number; gone: string[]; changed: string[]; start: string; allDay: boolean }
  >
  calendarSync: { token?: string; changed: string[]; maybe: string[] }
  driveChanges: { token?: string; changed: string[]; maybe: string[] }
  docs: Record<string, string>
  slack: {
    channel: string
    users: Record<string, string>
    msgs: Record<string, SlackMsg>
  }
  snapshots: string[]
  /** Ben's mailbox (Ann's is `gmail`) and each user's last history id with the message ids added since. */
  mail: {
    ben: Record<string, { threadId: string; labels: string[] }>
    history: Record<string, HistoryMark>
    sent: Record<string, { subject: string; copies: Record<string, string> }>
  }
  /** Ann's files shared: with Ben (a role) or with anyone with the link. */
  benChanges: { token?: string; views: Record<string, string> }
  shares: Record<string, { ben?: { id: string; role: string }; anyone?: { id: string; role: string } }>
  /** Ann's events with Ben as attendee (cancelled once gone from `calendar`): Ben's answer, the instants. */
  invites: Record<string, { response: string; start: string; end: string; deleted?: boolean }>
  /** Channels the fuzzer created: members by user key. */
  channels: Record<string, { name: string; private: boolean; members: string[]; archived: boolean }>
  /** Pending scheduled messages (in those channels) by id. */
  scheduled: Record<string, { user: string; channel: string; post_at: number }>
  /** Ben's user labels, each user's filters, Ben's drafts, and the copies that came by Cc or Bcc (0448). */
  mailMore: {
    labels: Record<string, string>
    filters: Record<string, MailFilter[]>
    drafts: Record<string, { message: string; subject: string }>
    cc: Record<string, string[]>
    bcc: Record<string, string[]>
  }
  dms: DmModel
  groups: GroupModel
  series: SeriesModel
  drives: DrivesModel
  docStruct: DocStructModel
  owners: OwnersModel
  docSegs: DocSegsModel
  docTabs: DocTabsModel
  docBatch: DocBatchModel
}
export type MailFilter = { id: string; from?: string; subject?: string; add: string[]; remove: string[] }
export type HistoryMark = { id: string; added: string[] }
export type SlackMsg = {
  user: string
  text: string
  parent?: string
  broadcast?: boolean
  deleted?: boolean
  reactions: Record<string, string[]>
  pinned: boolean
}

type Outcome<T> = { ok: true; status: number; data: T } | { ok: false; status: number; data: Record<string, unknown> }

export class Fuzz {
  step = 0
  op = ''
  readonly transcript: string[] = []
  readonly control: ReturnType<typeof createControlApp>
  readonly gmail
  readonly calendar
  readonly drive
  readonly docs
  readonly slack: Record<string, WebClient>
  /** Ben's Google clients (the fields above act as Ann). */
  readonly ben: { gmail: gmail_v1.Gmail; calendar: calendar_v3.Calendar; drive: drive_v3.Drive }
  model: Model
  /** Switches a family's setup turns on for the others (ops-docs: `paragraphs`). */
  readonly options = new Set<string>()
  private saved = new Map<string, { state: string; model: Model }>()
  constructor(
    readonly rng: Rng,
    readonly server: SdkServer,
  ) {
    this.control = createControlApp(server.worlds, { adminToken: ADMIN })
    const opts = { auth: server.auth('ann'), rootUrl: server.url, retry: false }
    this.gmail = google.gmail({ version: 'v1', ...opts })
    this.calendar = google.calendar({ version: 'v3', ...opts })
    this.drive = google.drive({ version: 'v3', ...opts })
    this.docs = google.docs({ version: 'v1', ...opts })
    this.slack = { ann: server.slack('ann'), ben: server.slack('ben') }
    const as = { auth: server.auth('ben'), rootUrl: server.url, retry: false }
    this.ben = {
      gmail: google.gmail({ version: 'v1', ...as }),
      calendar: google.calendar({ version: 'v3', ...as }),
      drive: google.drive({ version: 'v3', ...as }),
    }
    this.model = {
      gmail: { labels: {}, msgs: {} },
      drafts: {},
      drive: { root: '', files: {} },
      calendar: {},
      calendarSync: { changed: [], maybe: [] },
      driveChanges: { changed: [], maybe: [] },
      docs: {},
      slack: { channel: '', users: {}, msgs: {} },
      snapshots: [],
      mail: { ben: {}, history: {}, sent: {} },
      shares: {},
      benChanges: { views: {} },
      invites: {},
      channels: {},
      scheduled: {},
      mailMore: { labels: {}, filters: {}, drafts: {}, cc: {}, bcc: {} },
      dms: { msgs: [], pending: {}, reminders: {}, bot: {}, n: 0 },
      groups: {},
      series: { series: {}, benSync: { changed: [] } },
      drives: {},
      docStruct: { docs: {}, n: 0 },
      owners: { files: {}, marks: { ann: { changed: [] }, ben: { changed: [] } } },
      docSegs: { docs: {}, n: 0 },
      docTabs: { docs: {}, n: 0 },
      docBatch: { docs: {}, n: 0 },
    }
  }

  fail(message: string): never {
    throw new FuzzFailure(`step ${this.step} ${this.op}: ${message}`)
  }
  check(cond: unknown, message: string | (() => string)): asserts cond {
    if (!cond) this.fail(typeof message === 'string' ? message : message())
  }
  equal(actual: unknown, expected: unknown, what: string): void {
    const a = JSON.stringify(actual)
    const e = JSON.stringify(expected)
    if (a !== e) this.fail(`${what}: got ${a.slice(0, 400)}, expected ${e.slice(0, 400)}`)
  }
  record(label: string, status: number, body: unknown): void {
    const text = JSON.stringify(body ?? null).replaceAll(this.server.url, 'URL/')
    this.transcript.push(`${this.step} ${label} ${status} ${text}`)
  }

  async admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const res = await this.control.request(path, {
      method,
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await res.text()
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null }
  }
  async state(id = this.server.entry.id): Promise<WorldState> {
    const r = await this.admin('GET', `/worlds/${id}/state`)
    if (r.status !== 200) this.fail(`state read answered ${r.status}`)
    return r.body as WorldState
  }

  /** Runs one Google call: no 5xx, JSON where JSON is due, errors in the envelope, failed writes change nothing. */
  async google<T>(label: string, write: boolean, fn: () => Promise<{ status: number; data: T }>): Promise<Outcome<T>> {
    const before = write ? await this.state() : undefined
    try {
      const res = await fn()
      if (res.status !== 204) this.check(res.data !== null && typeof res.data === 'object', `${label}: non-JSON 2xx`)
      this.record(label, res.status, res.data)
      return { ok: true, status: res.status, data: res.data }
    } catch (e) {
      const res = (e as { response?: { status: number; data: unknown } }).response
      if (!res) this.fail(`${label}: no response (${(e as Error).message})`)
      this.check(res.status < 500, `${label}: answered ${res.status} ${JSON.stringify(res.data).slice(0, 300)}`)
      const err = (res.data as { error?: { code?: number; message?: string } } | null)?.error
      this.check(
        err && err.code === res.status && typeof err.message === 'string',
        () => `${label}: error outside the envelope: ${JSON.stringify(res.data).slice(0, 300)}`,
      )
      this.record(label, res.status, res.data)
      if (before) await this.unchanged(label, before)
      return { ok: false, status: res.status, data: res.data as Record<string, unknown> }
    }
  }

  /** Runs one Slack method as a user: a JSON body with `ok`, `error` on failure, failed writes change nothing. */
  async slackCall(
    label: string,
    write: boolean,
    user: string,
    method: string,
    args: Record<string, unknown>,
  ): Promise<Outcome<Record<string, unknown>>> {
    const before = write ? await this.state() : undefined
    try {
      const data = (await this.slack[user]!.apiCall(method, args)) as unknown as Record<string, unknown>
      this.check(data.ok === true, `${label}: ok is ${String(data.ok)}`)
      const { response_metadata: _, ...kept } = data
      this.record(label, 200, kept)
      return { ok: true, status: 200, data }
    } catch (e) {
      const err = e as { code?: string; data?: Record<string, unknown>; statusCode?: number; message: string }
      if (err.code !== 'slack_webapi_platform_error' || !err.data) this.fail(`${label}: ${err.code} ${err.message}`)
      this.check(err.data.ok === false && typeof err.data.error === 'string', `${label}: bad error body`)
      const { response_metadata: _, ...kept } = err.data
      this.record(label, 200, kept)
      if (before) await this.unchanged(label, before)
      return { ok: false, status: 200, data: err.data }
    }
  }

  private async unchanged(label: string, before: WorldState): Promise<void> {
    const after = await this.state()
    const strip = (s: WorldState) => JSON.stringify({ ...s, clockMs: 0 })
    if (strip(after) === strip(before)) return
    const changes = diffStates(before, after).slice(0, 3)
    this.fail(`${label} failed but changed state: ${JSON.stringify(changes).slice(0, 800)}`)
  }

  // Control plane: snapshots remember the state and the model; a restore must give that exact state back.
  async snapshot(): Promise<void> {
    const name = `s${this.step}`
    const r = await this.admin('POST', `/worlds/${this.server.entry.id}/snapshots`, { name })
    this.equal(r.status, 201, 'snapshot status')
    this.saved.set(name, { state: JSON.stringify(await this.state()), model: structuredClone(this.model) })
    this.record('snapshot', r.status, r.body)
  }
  async restore(): Promise<void> {
    const names = [...this.saved.keys()]
    if (!names.length) return this.snapshot()
    const name = this.rng.pick(names)
    const r = await this.admin('POST', `/worlds/${this.server.entry.id}/restore`, { name })
    this.equal(r.status, 200, 'restore status')
    const kept = this.saved.get(name)!
    const now = JSON.stringify(await this.state())
    if (now !== kept.state) {
      const diff = diffStates(JSON.parse(kept.state) as WorldState, JSON.parse(now) as WorldState)
      this.fail(`restore of ${name} differs from its moment: ${JSON.stringify(diff.slice(0, 3)).slice(0, 800)}`)
    }
    this.model = structuredClone(kept.model)
    this.record('restore', r.status, name)
  }
  async fork(): Promise<void> {
    const id = `fork${this.step}`
    const r = await this.admin('POST', `/worlds/${this.server.entry.id}/fork`, { id })
    this.equal(r.status, 201, 'fork status')
    const [mine, theirs] = [await this.state(), await this.state(id)]
    if (JSON.stringify(mine) !== JSON.stringify(theirs)) {
      this.fail(`fork differs: ${JSON.stringify(diffStates(mine, theirs).slice(0, 3)).slice(0, 800)}`)
    }
    this.equal((await this.admin('DELETE', `/worlds/${id}`)).status, 204, 'fork delete status')
    this.record('fork', r.status, id)
  }
}

export type Op = { name: string; weight: number; run(f: Fuzz): Promise<void> }

export type RunResult = { seed: number; steps: number; transcript: string[]; state: string; failure?: string }

/** Runs `steps` random operations from `ops` on a fresh world; stops at the first broken invariant. */
export async function runSequence(
  seed: number,
  steps: number,
  ops: Op[],
  setup: (f: Fuzz) => Promise<void>,
  world: typeof FUZZ_SEED = FUZZ_SEED,
): Promise<RunResult> {
  const server = await startSdkServer(world, 1)
  const f = new Fuzz(new Rng(seed), server)
  const total = ops.reduce((n, o) => n + o.weight, 0)
  let failure: string | undefined
  try {
    f.op = 'setup'
    await setup(f)
    for (f.step = 1; f.step <= steps; f.step++) {
      let r = f.rng.int(total)
      const op = ops.find((o) => (r -= o.weight) < 0)!
      f.op = op.name
      await op.run(f)
    }
  } catch (e) {
    if (!(e instanceof FuzzFailure)) failure = `step ${f.step} ${f.op}: threw ${(e as Error).stack ?? String(e)}`
    else failure = e.message
  }
  const state = JSON.stringify(await f.state())
  await server.close()
  server.worlds.close()
  return { seed, steps, transcript: f.transcript, state, ...(failure ? { failure } : {}) }
}
