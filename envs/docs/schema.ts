import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * One row per Google Doc with content: the Drive file id, the document model (model/types.ts
 * DocModel as JSON) and the revision counter behind revisionId. A Google Doc file without a row
 * reads as an empty document.
 */
export const documents = sqliteTable('docs_documents', {
  fileId: text('file_id').primaryKey(),
  model: text('model').notNull(),
  revision: integer('revision').notNull(),
})

export const docsTables = [documents] as const
