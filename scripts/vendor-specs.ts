// Refreshes the vendored API descriptions and recorded responses under specs/ from a reference checkout.
// Usage: node --import tsx scripts/vendor-specs.ts <reference dir holding specs/ and parity/>
// Nothing else in the project reads the reference dir: gen:api and the tests read specs/ only.
//   specs/*.discovery.json, specs/slack.web-api-8.2.0.methods.json   copied byte for byte
//   specs/slack.web.openapi.paths.json   the Slack OpenAPI without `responses` and `definitions` (examples: 1.2 MB),
//                                        which gen:api does not read
//   specs/parity/<svc>/*.json            every recorded response, byte for byte
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const from = process.argv[2]
if (!from) {
  console.error('usage: vendor-specs.ts <reference dir with specs/ and parity/>')
  process.exit(2)
}
const root = resolve(import.meta.dirname, '..')
const out = join(root, 'specs')
const src = resolve(from)

const COPIED = [
  'gmail.v1.discovery.json',
  'calendar.v3.discovery.json',
  'drive.v3.discovery.json',
  'docs.v1.discovery.json',
  'admin.directory_v1.discovery.json',
  'slack.web-api-8.2.0.methods.json',
]
mkdirSync(out, { recursive: true })
for (const f of COPIED) copyFileSync(join(src, 'specs', f), join(out, f))

type Op = Record<string, unknown>
const slack = JSON.parse(readFileSync(join(src, 'specs', 'slack.web.openapi.json'), 'utf8'))
const paths: Record<string, Record<string, Op>> = {}
for (const [path, item] of Object.entries(slack.paths as Record<string, Record<string, Op>>)) {
  const withoutResponses = (op: Op) => Object.fromEntries(Object.entries(op).filter(([k]) => k !== 'responses'))
  paths[path] = Object.fromEntries(Object.entries(item).map(([verb, op]) => [verb, withoutResponses(op)]))
}
const trimmed = { swagger: slack.swagger, info: slack.info, host: slack.host, basePath: slack.basePath, paths }
writeFileSync(join(out, 'slack.web.openapi.paths.json'), JSON.stringify(trimmed, null, 2) + '\n')

let n = 0
for (const svc of readdirSync(join(src, 'parity'), { withFileTypes: true })) {
  if (!svc.isDirectory()) continue
  mkdirSync(join(out, 'parity', svc.name), { recursive: true })
  for (const f of readdirSync(join(src, 'parity', svc.name))) {
    if (!f.endsWith('.json')) continue
    copyFileSync(join(src, 'parity', svc.name, f), join(out, 'parity', svc.name, f))
    n++
  }
}
console.log(`vendored ${COPIED.length + 1} spec files and ${n} recorded responses into specs/`)
