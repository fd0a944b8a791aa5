/** The inspector's stylesheet and script, served from /ui/static (no build step). */

export const CSS = `
:root { --fg:#1d2330; --muted:#667085; --line:#d9dee7; --bg:#f6f7f9; --accent:#2452c7; --ok:#1c7c3a; --bad:#b42318; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 system-ui, sans-serif; color:var(--fg); background:var(--bg); }
header { display:flex; gap:16px; align-items:center; padding:8px 16px; background:#fff;
  border-bottom:1px solid var(--line); }
header nav { flex:1; } header form { margin:0; }
.brand { font-weight:700; text-decoration:none; color:var(--fg); }
main { padding:16px; }
a { color:var(--accent); }
h1 { font-size:20px; margin:0 0 12px; } h2 { font-size:16px; margin:20px 0 8px; }
table { border-collapse:collapse; background:#fff; width:100%; }
th, td { border-bottom:1px solid var(--line); padding:4px 8px; text-align:left; vertical-align:top; }
th { color:var(--muted); font-weight:600; }
pre { background:#fff; border:1px solid var(--line); padding:8px; overflow:auto; max-height:320px; white-space:pre-wrap;
  word-break:break-word; margin:4px 0; }
form.inline { display:inline-flex; gap:4px; margin:2px 8px 2px 0; align-items:center; }
input, select, button { font:inherit; padding:3px 6px; }
.cols { display:grid; grid-template-columns: 220px 1fr; gap:16px; }
.side { background:#fff; border:1px solid var(--line); padding:8px; }
.side ul { list-style:none; padding:0; margin:0; } .side li { padding:2px 0; }
.muted { color:var(--muted); } .ok { color:var(--ok); font-weight:600; } .bad { color:var(--bad); font-weight:600; }
.card { background:#fff; border:1px solid var(--line); padding:10px 12px; margin:0 0 12px; }
.tabs a { margin-right:12px; } .tabs a.on { font-weight:700; text-decoration:none; color:var(--fg); }
iframe.sandboxed { width:100%; min-height:220px; border:1px solid var(--line); background:#fff; }
.week { display:grid; grid-template-columns: 56px repeat(7, 1fr); background:#fff; border:1px solid var(--line); }
.week .dayhead { text-align:center; padding:4px; border-left:1px solid var(--line); border-bottom:1px solid var(--line);
  font-weight:600; }
.week .allday { grid-column: 1 / -1; display:grid; grid-template-columns: 56px repeat(7, 1fr);
  border-bottom:1px solid var(--line); min-height:24px; }
.week .hours { position:relative; height:1152px; } .week .hour { height:48px; border-top:1px solid #eef0f4;
  font-size:11px; color:var(--muted); padding-right:4px; text-align:right; }
.week .day { position:relative; height:1152px; border-left:1px solid var(--line);
  background:repeating-linear-gradient(#fff 0 47px, #eef0f4 47px 48px); }
.ev { position:absolute; left:2px; right:2px; background:#dbe6ff; border-left:3px solid var(--accent);
  font-size:12px; overflow:hidden; padding:1px 4px; border-radius:3px; }
.ev.allday { position:static; margin:2px; }
.week .allday > div { border-left:1px solid var(--line); min-width:0; }
.ev.recurring { background:#e3f4e8; border-left-color:var(--ok); } .ev.exception { border-left-color:#d97706; }
.ev.cancelled { text-decoration:line-through; opacity:.6; }
.step { border-left:3px solid var(--line); padding-left:10px; margin:8px 0; }
.step.current { border-left-color:var(--accent); background:#eef3ff; }
.replay .step.hidden { display:none; }
.timeline { display:flex; gap:2px; align-items:flex-end; height:40px; }
.timeline span { width:10px; background:var(--accent); display:inline-block; }
.timeline span.err { background:var(--bad); }
.msg { background:#fff; border:1px solid var(--line); padding:8px; margin-bottom:8px; }
.change-create { color:var(--ok); } .change-delete { color:var(--bad); } .change-update { color:#b54708; }
.login { max-width:360px; margin:80px auto; background:#fff; border:1px solid var(--line); padding:20px; }
`

/** Replay: step through a finished episode's calls one at a time (keys ← / → or the buttons). */
export const JS = `
document.addEventListener('DOMContentLoaded', () => {
  const box = document.querySelector('.replay-box')
  if (!box) return
  const steps = [...document.querySelectorAll('.steps .step')]
  const label = box.querySelector('.replay-pos')
  let pos = -1
  const show = (n, scroll = true) => {
    pos = Math.max(-1, Math.min(steps.length - 1, n))
    document.querySelector('.steps').classList.toggle('replay', pos < steps.length - 1)
    steps.forEach((s, i) => { s.classList.toggle('hidden', i > pos); s.classList.toggle('current', i === pos) })
    label.textContent = (pos + 1) + ' / ' + steps.length
    if (scroll && steps[pos]) steps[pos].scrollIntoView({ block: 'nearest' })
  }
  box.querySelector('.replay-start').addEventListener('click', () => show(-1))
  box.querySelector('.replay-prev').addEventListener('click', () => show(pos - 1))
  box.querySelector('.replay-next').addEventListener('click', () => show(pos + 1))
  box.querySelector('.replay-end').addEventListener('click', () => show(steps.length - 1))
  document.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowRight') show(pos + 1)
    if (e.key === 'ArrowLeft') show(pos - 1)
  })
  show(steps.length - 1, false)
})
`
