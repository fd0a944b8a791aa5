import type { SeedContext } from '../core/service.ts'
import type { World } from '../core/world.ts'
import { createGoogleDocFile, indexSeededDoc, isGoogleDoc } from '../drive/docs-bridge.ts'
import { buildDocument, type DocsSeed } from './build.ts'
import { saveDocument } from './store/documents.ts'
import { plainText } from './render/text.ts'
import { baseView } from './model/suggest.ts'

export { docsSeedSchema, type DocsSeed } from './build.ts'

/** Writes the seeded documents (creating their Drive files when no id is given). */
export function seedDocs(world: World, seed: DocsSeed, ctx: SeedContext) {
  world.tx((db) => {
    seed.documents.forEach((d, i) => {
      const path = `docs.documents[${i}]`
      let id = d.id
      if (id) {
        if (isGoogleDoc(db, id) !== true) throw new Error(`${path}.id: ${id} is not a Google Doc file seeded in drive`)
      } else {
        if (!d.owner) throw new Error(`${path}.owner: required when no id is given`)
        const owner = ctx.user(d.owner, `${path}.owner`)
        id = createGoogleDocFile(db, {
          ownerId: owner.id,
          title: d.title ?? 'Untitled document',
          ...(d.parentId ? { parentId: d.parentId } : {}),
        }).id
      }
      const fileId: string = id
      const suggestions = d.suggestions?.map((s, j) => ({
        ...s,
        author: ctx.user(s.author, `${path}.suggestions[${j}].author`).email,
      }))
      const extra = { namedRanges: d.namedRanges, requests: d.requests, suggestions }
      let model
      try {
        model = buildDocument(db, fileId, d.content, extra, new Date(ctx.nowMs).toISOString())
      } catch (err) {
        // A suggestion whose text is missing names the document it belongs to.
        const ours = err instanceof Error && err.message.startsWith('suggestion')
        if (ours) throw new Error(`${path}.suggestions: ${(err as Error).message}`)
        throw err
      }
      saveDocument(db, fileId, model, 1)
      // Drive's full-text index holds the seeded text (pending suggestions rejected), as it does after an edit.
      indexSeededDoc(db, fileId, plainText(baseView(model)))
    })
  })
}
