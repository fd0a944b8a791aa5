import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Running } from '../../server/main.ts'
import type { OracleResult, Violation as OracleViolation } from '../../oracles/types.ts'
import type { StepResult } from '../../gym/episode.ts'
import type { ToolDef as GymToolDef } from '../../gym/tools.ts'
import type { describeEpisode } from '../../gym/http.ts'
import type { publicTask } from '../../gym/task.ts'
import { GymClient } from '../../trainer/http.ts'
import type { PublicTask, ResetAnswer, StepAnswer, ToolDef, VerifyAnswer, Violation } from '../../trainer/types.ts'
import { ADMIN, corpus, startGym } from './support.ts'

// The trainer restates the gym's wire types (it may not import the gym); `tsc --noEmit` fails here when they drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const checks: {
  violation: Same<Violation, OracleViolation>
  verify: OracleResult & { steps: number } extends VerifyAnswer ? true : false
  step: Same<StepAnswer, StepResult>
  tool: GymToolDef extends ToolDef ? true : false
  reset: ReturnType<typeof describeEpisode> extends ResetAnswer ? true : false
  task: ReturnType<typeof publicTask> extends PublicTask ? true : false
} = { violation: true, verify: true, step: true, tool: true, reset: true, task: true }

let server: Running
beforeAll(async () => {
  server = await startGym()
})
afterAll(async () => server?.close())

describe('trainer wire types', () => {
  it('match what the gym answers over HTTP', async () => {
    expect(Object.values(checks).every(Boolean)).toBe(true)
    const gym = new GymClient(server.controlUrl, ADMIN)
    const ep = await gym.reset({ taskId: corpus[0]!.id })
    const keys: Record<keyof ResetAnswer, true> = {
      episodeId: true,
      worldId: true,
      task: true,
      instruction: true,
      tools: true,
      baseUrls: true,
      user: true,
      tokens: true,
      observation: true,
      maxSteps: true,
    }
    expect(Object.keys(ep).sort()).toEqual(Object.keys(keys).sort())
    const v = await gym.verify(ep.episodeId)
    expect(Object.keys(v).sort()).toEqual(['details', 'metrics', 'passed', 'reward', 'steps', 'violations'])
    await gym.close(ep.episodeId)
  })

  it('refuses requests without the admin token', async () => {
    await expect(new GymClient(server.controlUrl, 'wrong').tasks()).rejects.toMatchObject({ status: 401 })
  })
})
