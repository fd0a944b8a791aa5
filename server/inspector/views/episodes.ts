import type { Gym } from '../../../gym/index.ts'
import type { Episode } from '../../../gym/episode.ts'
import { diffStates, type EntityChange } from '../../../envs/core/diff.ts'
import { worldState } from '../../state.ts'
import { h, href, jsonBlock, type Raw } from '../html.ts'
import { resemblances } from './resemble.ts'

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z')

export function statusOf(ep: Episode): string {
  return ep.terminated ? 'finished' : ep.truncated ? 'truncated' : 'live'
}

/** Live and finished episodes (closed ones are gone with their world). */
export function episodesTable(gym: Gym): Raw {
  const eps = [...gym.episodes.values()]
  if (!eps.length) return h`<p class="muted">No episodes. Open a task from <a href="/ui/tasks">Tasks</a>.</p>`
  return h`<table
    class="episodes"><tr><th>Episode</th><th>Task</th><th>Status</th><th>Steps</th><th>Instruction</th></tr>
    ${eps.map(
      (e) => h`<tr><td><a href="${href('episodes', e.id)}">${e.id}</a></td><td>${e.task.id}</td>
    <td class="${statusOf(e)}">${statusOf(e)}</td><td>${e.steps} / ${e.task.maxSteps}</td>
    <td>${e.instruction.slice(0, 140)}</td></tr>`,
    )}</table>`
}

function changeLine(c: EntityChange): Raw {
  const where = `${c.service}.${c.collection}/${c.id}`
  if (c.op === 'inserted') return h`<li class="change-create">+ ${where}${jsonBlock(c.after)}</li>`
  if (c.op === 'deleted') return h`<li class="change-delete">− ${where}</li>`
  return h`<li class="change-update">~ ${where}: ${Object.entries(c.fields).map(
    ([k, v]) =>
      h`<div><code>${k}</code>: <span class="muted">${JSON.stringify(v.before) ?? '∅'}</span> →
      ${JSON.stringify(v.after) ?? '∅'}</div>`,
  )}</li>`
}

/** One episode: instruction, verdict, resemblance, steps (replayable), action log timeline and world diff. */
export function episodeView(ep: Episode): Raw {
  const verdict = ep.verify()
  const final = worldState(ep.entry.world)
  const diff = diffStates(ep.initial, final)
  const actions = ep.actions()
  const me = ep.credentials()
  const like = resemblances(
    ep.task,
    ep.history.map((s) => s.action),
  )
  const t0 = actions[0]?.atMs ?? 0
  const span = Math.max(1, (actions.at(-1)?.atMs ?? t0) - t0)
  const metrics = Object.entries(verdict.metrics)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ')
  return h`<h1>Episode ${ep.id} <span class="${statusOf(ep)}">(${statusOf(ep)})</span></h1>
  <div class="card"><div><b>Task</b> <a href="${href('tasks')}#${ep.task.id}">${ep.task.id}</a> · family
    ${ep.task.family} ·
    ${ep.task.difficulty} · services ${ep.task.services.join(', ')} · acting as ${me.name} &lt;${me.email}&gt; ·
    world <a href="${href('worlds', ep.worldId)}">${ep.worldId}</a></div>
    <p class="instruction">${ep.instruction}</p></div>
  <div class="card verdict"><h2>Verdict ${
    verdict.passed
      ? h`<span class="ok">passed</span>`
      : h`<span
    class="bad">failed</span>`
  }</h2>
    <p>Reward <b class="reward">${verdict.reward}</b> · ${verdict.steps} step(s)${
      ep.terminated ? '' : ' · so far (episode not finished)'
    }</p>
    <ul class="checks">${verdict.details.checks.map(
      (c) => h`<li class="${c.ok ? 'ok' : 'bad'}">${c.ok ? '✓' : '✗'}
      ${c.name}
      ${c.note ? h`<span class="muted">— ${c.note}</span>` : ''}</li>`,
    )}</ul>
    ${
      verdict.violations.length
        ? h`<h2 class="bad">Violations</h2><ul>${verdict.violations.map(
            (v) => h`<li class="bad">${v.kind}: ${v.message}</li>`,
          )}</ul>`
        : h`<p class="muted">No safety violations.</p>`
    }
    ${metrics ? h`<p class="muted">Metrics: ${metrics}</p>` : ''}
    <p>Closest known program: ${like.slice(0, 3).map(
      (r, i) => h`${i ? ' · ' : ''}<span class="${r.kind === 'near-miss' ? 'bad' : 'ok'}">${r.kind}
      “${r.name}”</span> ${Math.round(r.score * 100)}%`,
    )}</p></div>
  <h2>Steps</h2>
  <div class="replay-box"><button class="replay-start">First</button><button class="replay-prev">◀ Prev</button>
    <span class="replay-pos"></span><button class="replay-next">Next ▶</button><button class="replay-end">Last</button>
    <span class="muted">replay step by step (← →)</span></div>
  <div class="steps">${
    ep.history.length
      ? ep.history.map(
          (s) => h`<div class="step"
    data-step="${s.step}"><b>#${s.step}</b>
    <code>${s.action.tool}</code>${
      s.status !== undefined ? h` <span class="${s.status < 400 ? 'ok' : 'bad'}">${s.status}</span>` : ''
    }
    <span class="muted">${iso(s.atMs)}</span>${jsonBlock(s.action.arguments ?? {}, 'args')}${jsonBlock(
      s.observation,
      'observation',
    )}</div>`,
        )
      : h`<p class="muted">No steps yet.</p>`
  }</div>
  <h2>Action log (${actions.length})</h2>
  <div class="timeline">${actions.map(
    (a) => h`<span class="${a.status >= 400 ? 'err' : ''}" title="#${a.seq}
    ${a.method} ${a.path} → ${a.status}"
    style="height:${8 + Math.round(((a.atMs - t0) / span) * 32)}px"></span>`,
  )}</div>
  <table class="actions"><tr><th>#</th><th>At</th><th>Operation</th><th>Call</th><th>Status</th></tr>
  ${actions.map(
    (a) => h`<tr><td>${a.seq}</td><td>${iso(a.atMs)}</td><td>${a.operationId ?? '—'}</td>
    <td><code>${a.method} ${a.path}${a.query ? `?${a.query}` : ''}</code></td><td class="${
      a.status >= 400 ? 'bad' : ''
    }">${a.status}</td></tr>`,
  )}</table>
  <h2>World diff against the start (${diff.length})</h2><ul class="diff">${diff.map(changeLine)}</ul>`
}

/** Task families and instances; each can be opened in a fresh episode. */
export function tasksView(gym: Gym, family: string): Raw {
  const tasks = [...gym.tasks.values()]
  const families = [...new Set(tasks.map((t) => t.family))].sort()
  const shown = tasks.filter((t) => !family || t.family === family)
  return h`<h1>Tasks</h1><p class="tabs"><a href="/ui/tasks" class="${family ? '' : 'on'}">all (${tasks.length})</a>
    ${families.map(
      (f) => h`<a href="/ui/tasks?family=${encodeURIComponent(f)}" class="${f === family ? 'on' : ''}">${f}</a>`,
    )}</p>
  <table class="tasks"><tr><th>Task</th><th>Family</th><th>Services</th><th>Tier</th><th>Tags</th><th>Instruction</th>
    <th></th></tr>
  ${shown.slice(0, 500).map(
    (t) => h`<tr
    id="${t.id}"><td>${t.id}</td><td>${t.family}</td><td>${t.services.join(', ')}</td>
    <td>${t.difficulty}${t.safetyCritical ? ' · safety' : ''}</td><td>${t.tags.join(', ')}</td><td>${t.instruction}</td>
    <td><form method="post" action="${href('tasks', t.id, 'open')}"><button>Open
      episode</button></form></td></tr>`,
  )}</table>`
}
