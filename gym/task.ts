import { z } from 'zod'

/** The final-answer length an episode keeps (what `done` stores). */
export const MAX_ANSWER_CHARS = 4000

/** One call in a solution program: a tool call whose string arguments may use `{{name}}` bindings. */
export const ProgramStep = z.object({
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  /** Bindings taken from the response body: name → dotted path (`messages.0.id`, `files.0.id`). */
  save: z.record(z.string(), z.string().optional()).optional(),
})
export type ProgramStep = z.infer<typeof ProgramStep>

/** A task: what the agent is told, the world it starts in, and (control side only) how it is judged. */
export const TaskSpec = z.object({
  generatedBy: z.string(),
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/),
  family: z.string(),
  services: z.array(z.string()).min(1),
  /** Operation ids the reference needs; validation reports the task as pending while one is not registered. */
  requires: z.array(z.string()).default([]),
  instruction: z.string().min(1),
  /** The user the agent acts as (world user id). */
  actor: z.string(),
  seed: z.union([z.string(), z.record(z.string(), z.unknown())]),
  seedValue: z.number().int().default(1),
  /**
   * Background volume the world generator (tasks-lite/world/) adds around the family's planted entities: `none` keeps
   * the seed as written; `light` / `medium` / `heavy` add realistic mail, calendar, Drive and Slack history.
   */
  world: z.object({ volume: z.enum(['none', 'light', 'medium', 'heavy']) }).optional(),
  /** World clock at reset (ISO); inline seeds carry their own `now`. */
  clock: z.string().optional(),
  toolProfile: z.enum(['rest', 'typed']).default('rest'),
  maxSteps: z.number().int().min(1).default(30),
  maxObservationChars: z.number().int().min(200).default(20_000),
  oracle: z.object({ id: z.string(), params: z.record(z.string(), z.unknown()) }),
  reference: z.array(ProgramStep),
  /** Natural mistakes: each must fail the oracle. */
  nearMisses: z.array(z.object({ name: z.string(), program: z.array(ProgramStep) })).default([]),
  difficulty: z.enum(['easy', 'medium', 'hard']).default('medium'),
  /** Stored split (tasks-lite/splits.ts); the corpus sets it, inline tasks may leave it out. */
  split: z.enum(['train', 'dev', 'test']).optional(),
  safetyCritical: z.boolean().default(false),
  tags: z.array(z.string()).default([]),
})
export type TaskSpec = z.output<typeof TaskSpec>
export type TaskInput = z.input<typeof TaskSpec>

/** What the agent may see of a task (no oracle, no solutions). */
export function publicTask(t: TaskSpec) {
  return {
    id: t.id,
    family: t.family,
    services: t.services,
    instruction: t.instruction,
    toolProfile: t.toolProfile,
    maxSteps: t.maxSteps,
    difficulty: t.difficulty,
    split: t.split,
    tags: t.tags,
  }
}
