import { World } from '../../envs/core/world.ts'
import { docsTables } from '../../envs/docs/schema.ts'
import { newDocument } from '../../envs/docs/model/new.ts'
import { documentTabToWire } from '../../envs/docs/model/wire.ts'
import { applyRequests, checkRequests } from '../../envs/docs/requests/apply.ts'
import { buildDocument, type SeedBlock } from '../../envs/docs/build.ts'
import type { Ctx } from '../../envs/docs/requests/common.ts'
import { plainText } from '../../envs/docs/render/text.ts'

/** A document engine over a scratch world: apply requests in-process and read the wire body. */
export function engine(blocks: SeedBlock[] = []) {
  const world = World.create([...docsTables])
  const ctx: Ctx = {
    doc: blocks.length ? buildDocument(world.db, 'f', blocks) : newDocument(),
    db: world.db,
    fileId: 'f',
    userEmail: 'a@x.test',
    nowIso: '2026-03-01T09:00:00.000Z',
  }
  return {
    ctx,
    apply: (...reqs: Record<string, unknown>[]) => applyRequests(ctx, checkRequests(reqs)),
    /** Applies on a copy and returns the thrown message (the original stays untouched). */
    error(...reqs: Record<string, unknown>[]): string {
      const copy = { ...ctx, doc: structuredClone(ctx.doc) }
      try {
        applyRequests(copy, checkRequests(reqs))
      } catch (e) {
        return (e as Error).message
      }
      return 'no error'
    },
    wire: () => documentTabToWire(ctx.doc.tabs[0]!) as any,
    body: () => (documentTabToWire(ctx.doc.tabs[0]!) as any).body.content as any[],
    text: () => plainText(ctx.doc),
  }
}
