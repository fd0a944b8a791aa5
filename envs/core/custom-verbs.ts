// Hono reads ":name" as a parameter, so "/{id}:batchUpdate" would become one parameter named
// "id:batchUpdate" that matches every POST under the collection. Requests are routed through
// "/~verb" instead, and the public OpenAPI document maps it back.
const PUBLIC_VERB = /^(.*\/[^/:]+):([A-Za-z]+)$/
const INTERNAL_VERB = /\/~([A-Za-z]+)$/

/** `/v1/documents/abc:batchUpdate` → `/v1/documents/abc/~batchUpdate` (incoming requests). */
export const toRoutingPath = (path: string) => (path.includes(':') ? path.replace(PUBLIC_VERB, '$1/~$2') : path)

/** `/v1/documents/{documentId}/~batchUpdate` → `/v1/documents/{documentId}:batchUpdate` (the /openapi.json output). */
export const toPublicPath = (path: string) => path.replace(INTERNAL_VERB, ':$1')
