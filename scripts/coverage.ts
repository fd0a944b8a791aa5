// Prints, per service, how many spec methods are implemented and which are missing.
// Usage: npm run coverage [-- --json]
import { coverageReport } from '../server/coverage.ts'
import { loadRouters } from '../server/routers.ts'

await loadRouters()
const report = coverageReport()
if (process.argv.includes('--json')) {
  console.log(
    JSON.stringify(
      report.map(({ implementedIds: _, ...r }) => r),
      null,
      2,
    ),
  )
} else {
  for (const r of report) {
    const pct = ((100 * r.implemented) / r.total).toFixed(0)
    console.log(`${r.service.padEnd(9)} ${String(r.implemented).padStart(3)}/${String(r.total).padEnd(3)} (${pct}%)`)
    if (r.missing.length) console.log(`          missing: ${r.missing.join(', ')}`)
    if (r.unknown.length) console.log(`          NOT IN SPEC: ${r.unknown.join(', ')}`)
  }
}
