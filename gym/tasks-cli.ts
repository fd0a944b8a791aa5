/**
 * `wsgym tasks …`: the task corpus from the command line.
 *   wsgym tasks export --format harbor DIR [--split S] [--family F] [--admin-token T] [--gym-image I]
 *   wsgym tasks list [--split S] [--family F]
 */
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import { loadCorpus } from './corpus.ts'
import { exportHarbor } from './export-harbor.ts'
import type { TaskSpec } from './task.ts'

const USAGE = `wsgym tasks — the task corpus (tasks-lite)

  wsgym tasks list [--split S] [--family F]
  wsgym tasks export --format harbor DIR [--split S] [--family F] [--admin-token T] [--gym-image IMAGE]
      one Harbor/BenchFlow task directory per task: task.toml, instruction.md, environment/ (the gym service runs
      \`npx wsgym serve\`), tests/test.sh (verifies the episode over HTTP; exit 0 only on reward 1).
      --admin-token: the gym's control token written into tests/ and the compose file (default: a random one)
`

const SPLITS = ['train', 'dev', 'test']

/** The corpus filtered by split and family; an unknown split or family is an error, not an empty export. */
export function selectTasks(all: TaskSpec[], split?: string, family?: string): TaskSpec[] | string {
  if (split !== undefined && !SPLITS.includes(split)) return `unknown split "${split}" (${SPLITS.join(', ')})`
  if (family !== undefined && !all.some((t) => t.family === family)) return `unknown family "${family}"`
  return all.filter((t) => (!split || t.split === split) && (!family || t.family === family))
}

export async function main(argv: string[], corpus: () => TaskSpec[] = loadCorpus): Promise<number> {
  const [command, ...rest] = argv
  if (command !== 'export' && command !== 'list') {
    console.log(USAGE)
    return command === undefined || command === 'help' || command === '--help' ? 0 : 2
  }
  let parsed
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        format: { type: 'string' },
        split: { type: 'string' },
        family: { type: 'string' },
        'admin-token': { type: 'string' },
        'gym-image': { type: 'string' },
      },
    })
  } catch (e) {
    return fail((e as Error).message)
  }
  const { values, positionals } = parsed
  const tasks = selectTasks(corpus(), values.split, values.family)
  if (typeof tasks === 'string') return fail(tasks)
  if (command === 'list') {
    for (const t of tasks) console.log(`${t.id}\t${t.split ?? '-'}\t${t.difficulty}\t${t.services.join(',')}`)
    return 0
  }
  if (values.format !== 'harbor') return fail('--format harbor is the one export format')
  const dir = positionals[0]
  if (!dir || positionals.length > 1) return fail('give one output directory: wsgym tasks export --format harbor DIR')
  const adminToken = values['admin-token'] ?? randomBytes(24).toString('base64url')
  const written = exportHarbor(tasks, dir, { adminToken, gymImage: values['gym-image'] })
  console.log(`wrote ${written.length} Harbor task directories to ${dir}`)
  return 0
}

function fail(message: string): number {
  console.error(`wsgym tasks: ${message}`)
  return 2
}
