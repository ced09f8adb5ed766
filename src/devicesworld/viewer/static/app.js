// DevicesWorld viewer: a small single-page app over the JSON API in server.py.
// Plain JavaScript, no build step. Every value from a run is inserted with
// textContent (never innerHTML), so task text and agent output cannot inject markup.
"use strict";

const app = document.getElementById("app");
const crumbs = document.getElementById("crumbs");
const PAGE = 300; // task rows rendered at once; "show more" adds another page
const cache = new Map();

async function api(path, fresh = false) {
  if (!fresh && cache.has(path)) return cache.get(path);
  const res = await fetch(path, fresh ? { cache: "no-store" } : {});
  const body = await res.json();
  if (!res.ok) throw new Error(body.error || res.statusText);
  cache.set(path, body);
  return body;
}

// Live refresh: a view may register one poll (re-fetching what a run still writes);
// routing to another view stops it.
const REFRESH_MS = 2000;
let poll = null;
function startPoll(fn) {
  stopPoll();
  poll = setInterval(() => fn().catch(() => {}), REFRESH_MS);
}
function stopPoll() {
  if (poll !== null) clearInterval(poll);
  poll = null;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

const pct = (v) => (v === null || v === undefined ? "-" : (100 * v).toFixed(1) + "%");
const pctCI = (ci) => (!ci ? "-" : `[${(100 * ci[0]).toFixed(1)}, ${(100 * ci[1]).toFixed(1)}]%`);
const num = (v, d = 3) => (v === null || v === undefined ? "-" : Number(v).toFixed(d));
const numCI = (ci, d = 3) => (!ci ? "-" : `[${Number(ci[0]).toFixed(d)}, ${Number(ci[1]).toFixed(d)}]`);

function table(headers, rows, opts = {}) {
  const t = el("table", { class: opts.class });
  t.append(el("thead", {}, el("tr", {}, ...headers.map((h) => el("th", { text: h })))));
  const tb = el("tbody");
  for (const r of rows) tb.append(r instanceof Node ? r : el("tr", {}, ...r.map((c) => (c instanceof Node ? el("td", {}, c) : el("td", { text: c })))));
  t.append(tb);
  return t;
}

function setCrumbs(items) {
  crumbs.replaceChildren(...items.map(([label, href]) => el("a", { href, text: label })));
}

function showError(err) {
  app.replaceChildren(el("p", { class: "bad", text: "Error: " + err.message }));
}

// ------------------------------------------------------------------ runs list
const dateOf = (iso) => (iso ? String(iso).replace("T", " ").slice(0, 16) : "-");
const withCI = (v, ci, fmt, fmtCI) => (v === null || v === undefined ? "-" : `${fmt(v)} ${ci ? fmtCI(ci) : ""}`.trim());

function runRow(r, picked, onPick) {
  const box = el("input", { type: "checkbox", class: "pick", "aria-label": `compare ${r.label}`, "data-run": r.id,
    onclick: (e) => e.stopPropagation(), onchange: (e) => onPick(r.id, e.target.checked) });
  box.checked = picked.includes(r.id);
  return el("tr", { class: "clickable run-row", "data-run": r.id, onclick: () => (location.hash = `#/run/${r.id}`) },
    el("td", {}, box),
    el("td", {}, el("a", { href: `#/run/${r.id}`, class: "run-link", text: r.label })),
    el("td", { class: "agent", text: r.agent || "-" }),
    el("td", { class: "model", text: r.model || "-" }),
    el("td", { class: "date", text: dateOf(r.started_at) }),
    el("td", { class: "num tasks", text: r.n_episodes ?? r.n }),
    el("td", { class: "num success", text: withCI(r.success_rate, r.success_ci95, pct, pctCI) }),
    el("td", { class: "num score", text: withCI(r.mean_score, r.score_ci95, (v) => num(v), (c) => numCI(c)) }),
    el("td", { class: "num invalid", title: r.invalid_line || null, text: pct(r.invalid_rate) }),
    el("td", { class: "status", text: r.status || "-" }),
    el("td", { class: "muted", text: r.run_dir }));
}

async function viewRuns() {
  setCrumbs([]);
  const picked = [];
  const compare = el("button", { id: "compare", disabled: "", text: "Compare two runs",
    onclick: () => { if (picked.length === 2) location.hash = `#/compare/${picked[0]}/${picked[1]}`; } });
  const onPick = (id, on) => {
    const at = picked.indexOf(id);
    if (on && at < 0) picked.push(id);
    if (!on && at >= 0) picked.splice(at, 1);
    while (picked.length > 2) {
      const dropped = picked.shift();
      const other = app.querySelector(`input.pick[data-run="${dropped}"]`);
      if (other) other.checked = false;
    }
    compare.disabled = picked.length !== 2;
  };
  const title = el("h2");
  const box = el("div");
  const stamp = el("p", { class: "muted refreshed" });
  const draw = (runs) => {
    title.textContent = `${runs.length} run(s)`;
    box.replaceChildren(table(["", "Run", "Agent", "Model", "Date", "Tasks", "Success [95% CI]", "Mean score [95% CI]", "Invalid", "Status", "Directory"],
      runs.map((r) => runRow(r, picked, onPick)), { class: "runs" }));
    stamp.textContent = `updated ${new Date().toLocaleTimeString()} · refreshes every ${REFRESH_MS / 1000} s`;
  };
  draw(await api("/api/runs", true));
  app.replaceChildren(title, el("p", {}, compare, " pick two runs to see them task by task"), box, stamp);
  startPoll(async () => draw(await api("/api/runs", true)));
}

// ------------------------------------------------------------------ two runs, task by task
const GROUPS = [
  ["both", "Solved by both"],
  ["only_a", "Only A solved (B regressed)"],
  ["only_b", "Only B solved (B wins)"],
  ["neither", "Solved by neither"],
];
const pairOutcome = (o) => (!o ? "-" : `${o.success ? "success" : "failed"} · ${num(o.score, 2)} · ${o.steps} steps`);

async function viewCompare(a, b) {
  const data = await api(`/api/pairwise/${a}/${b}`, true);
  setCrumbs([["runs", "#/"], [`compare ${data.a.label} / ${data.b.label}`, `#/compare/${a}/${b}`]]);
  const filter = el("select", { "aria-label": "group", id: "group-filter", onchange: () => draw() },
    el("option", { value: "", text: "All groups" }), ...GROUPS.map(([k, label]) => el("option", { value: k, text: label })));
  const box = el("div");
  const draw = () => {
    box.replaceChildren(...GROUPS.filter(([k]) => !filter.value || filter.value === k).map(([k, label]) => {
      const rows = data.groups[k];
      return el("section", { class: "group", id: `group-${k}`, "data-group": k },
        el("h3", { text: `${label}: ${rows.length}` }),
        rows.length ? table(["Task", `A: ${data.a.label}`, `B: ${data.b.label}`, ""], rows.map((t) => el("tr", { class: "pair-row", "data-task": t.task_id },
          el("td", { text: t.task_id }),
          el("td", {}, el("a", { class: "ep-a", href: `#/run/${a}/ep/${encodeURIComponent(t.task_id)}`, text: pairOutcome(t.a) })),
          el("td", {}, el("a", { class: "ep-b", href: `#/run/${b}/ep/${encodeURIComponent(t.task_id)}`, text: pairOutcome(t.b) })),
          el("td", {}, el("a", { class: "side-link", href: `#/side/${a}/${b}/${encodeURIComponent(t.task_id)}`, text: "side by side" }))))) : el("p", { class: "muted", text: "none" }));
    }));
  };
  const summary = table(["", "Run", "Agent", "Model", "Tasks", "Success [95% CI]", "Mean score [95% CI]"], [data.a, data.b].map((r, i) =>
    [i ? "B" : "A", r.label, r.agent || "-", r.model || "-", String(r.n), withCI(r.success_rate, r.success_ci95, pct, pctCI), withCI(r.mean_score, r.score_ci95, (v) => num(v), (c) => numCI(c))]));
  const parts = [el("h2", { text: "Two runs, task by task" }), summary, el("p", {}, filter), box];
  if (data.unpaired.length) parts.push(el("p", { class: "muted", text: `${data.unpaired.length} task(s) ran in only one of the two runs: ${data.unpaired.map((t) => t.task_id).join(", ")}` }));
  draw();
  app.replaceChildren(...parts);
}

async function viewSide(a, b, taskId) {
  setCrumbs([["runs", "#/"], ["compare", `#/compare/${a}/${b}`], [taskId, `#/side/${a}/${b}/${encodeURIComponent(taskId)}`]]);
  const runs = await api("/api/runs");
  const column = async (runId, tag) => {
    const ep = await api(`/api/runs/${runId}/episodes/${encodeURIComponent(taskId)}`);
    const r = ep.result;
    return el("div", { class: `side side-${tag}` },
      el("h3", {}, `${tag.toUpperCase()}: `, el("a", { href: `#/run/${runId}/ep/${encodeURIComponent(taskId)}`, text: runs[runId] ? runs[runId].label : `run ${runId}` })),
      el("p", { class: r.success ? "ok" : "bad", text: `${r.success ? "success" : "failed"} · score ${num(r.score, 3)} · ${r.steps} steps · ${r.termination}` }),
      ...ep.steps.map((s) => stepCard(runId, taskId, s)));
  };
  const [left, right] = await Promise.all([column(a, "a"), column(b, "b")]);
  app.replaceChildren(el("h2", { text: taskId }), el("div", { class: "sides" }, left, right));
}

// ------------------------------------------------------------------ one run
function metricsTable(m) {
  const rows = [
    ["Tasks", String(m.n), ""],
    ["Success rate (TSR)", pct(m.success_rate), pctCI(m.success_ci95)],
    ["Mean score", num(m.mean_score), numCI(m.score_ci95)],
    ["Avg steps", num(m.avg_steps, 1), numCI(m.avg_steps_ci95, 1)],
    ["Avg duration (s)", num(m.avg_duration_s, 2), numCI(m.avg_duration_ci95, 2)],
    ["Budget exhaustion", pct(m.budget_exhaustion_rate), pctCI(m.budget_exhaustion_ci95)],
    ["Partial progress (failed)", pct(m.partial_progress_rate), pctCI(m.partial_progress_ci95)],
    ["Avg tokens / task", num(m.avg_tokens, 0), numCI(m.avg_tokens_ci95, 0)],
  ];
  const s = m.subtasks;
  if (s && s.n_composite) {
    rows.push(["SSR", pct(s.ssr), pctCI(s.ssr_ci95)]);
    rows.push([`Subtasks passed (${s.subtasks_passed}/${s.subtasks_total})`, pct(s.subtask_rate), pctCI(s.subtask_rate_ci95)]);
  }
  return table(["Metric", "Value", "95% CI"], rows, { class: "metrics" });
}

function failureTables(summary) {
  if (!summary.n_failed) return el("p", { class: "muted", text: "No failed episodes." });
  const box = el("div");
  const modes = Object.keys(summary.mode_counts);
  box.append(table(["Termination mode", "Failed runs", "Share"],
    modes.map((m) => [m.replace("_", " "), String(summary.mode_counts[m]), pct(summary.mode_shares[m])])));
  for (const mode of ["budget_exhausted", "declared_complete"]) {
    const counts = summary.type_counts[mode];
    const types = Object.keys(counts);
    box.append(table(["", ...types], [el("tr", {}, el("td", { text: mode.replace("_", " ") }),
      ...types.map((t) => el("td", { class: "cell", text: `${pct(summary.type_shares[mode][t])} (${counts[t]})` })))], { class: "heat" }));
  }
  box.append(el("p", { class: "muted", text: `Failed runs with partial progress: ${pct(summary.partial_progress_share)}` }));
  return box;
}

// An invalid episode (its environment failed) is neither a success nor a failure.
const outcome = (t) => (t.valid === false ? "invalid" : t.success ? "success" : "failed");
const outcomeClass = (t) => (t.valid === false ? "muted" : t.success ? "ok" : "bad");

const FILTERS = [
  ["outcome", "Outcome", () => ["success", "failed", "invalid"], (t, v) => outcome(t) === v],
  ["trial", "Trial", (rows) => uniq(rows.map((t) => String(t.trial))), (t, v) => String(t.trial) === v],
  ["termination", "Termination", (rows) => uniq(rows.map((t) => t.termination)), (t, v) => t.termination === v],
  ["device_combo", "Devices", (rows) => uniq(rows.map((t) => t.device_combo)), (t, v) => t.device_combo === v],
  ["pattern", "Pattern", (rows) => uniq(rows.map((t) => t.pattern)), (t, v) => t.pattern === v],
  ["difficulty", "Difficulty", (rows) => uniq(rows.map((t) => t.difficulty)), (t, v) => t.difficulty === v],
  ["app", "App", (rows) => uniq(rows.flatMap((t) => t.apps)), (t, v) => t.apps.includes(v)],
  ["failure_type", "Failure type", () => ["B1", "B2", "B3", "D1", "D2", "D3", "D4", "D5"], (t, v) => t.failure_type === v],
];
const uniq = (xs) => [...new Set(xs)].sort();

async function viewRun(runId) {
  const runs = await api("/api/runs");
  const run = runs[runId];
  if (!run) throw new Error(`no run ${runId}`);
  setCrumbs([["runs", "#/"], [run.label, `#/run/${runId}`]]);
  const tasks = await api(`/api/runs/${runId}/tasks`);
  const metricsBox = el("div", {}, el("p", { class: "muted", text: "Computing metrics…" }));
  const failBox = el("div", {}, el("p", { class: "muted", text: "Diagnosing failures…" }));
  const state = { search: "", shown: PAGE };
  const selects = {};
  const filterBar = el("div", { class: "filters" });
  const searchBox = el("input", { type: "search", placeholder: "task id…", "aria-label": "search tasks",
    oninput: (e) => { state.search = e.target.value.toLowerCase(); state.shown = PAGE; render(); } });
  filterBar.append(searchBox);
  for (const [key, label, options] of FILTERS) {
    const sel = el("select", { "aria-label": label, "data-filter": key, onchange: () => { state.shown = PAGE; render(); } },
      el("option", { value: "", text: `${label}: all` }), ...options(tasks).map((o) => el("option", { value: o, text: o })));
    selects[key] = sel;
    filterBar.append(sel);
  }
  const count = el("p", { class: "muted" });
  const tableBox = el("div");
  app.replaceChildren(
    el("p", { class: Object.keys(run.invalid || {}).length ? "bad invalid-line" : "invalid-line", text: run.invalid_line }),
    el("h2", { text: run.label }), el("p", { class: "muted", text: run.run_dir }),
    el("div", { class: "grid" }, el("div", {}, el("h2", { text: "Metrics" }), metricsBox),
      el("div", {}, el("h2", { text: "Failure diagnosis" }), failBox)),
    el("h2", { text: "Tasks" }), filterBar, count, tableBox);

  function render() {
    const active = FILTERS.filter(([k]) => selects[k].value);
    const rows = tasks.filter((t) => (!state.search || t.task_id.toLowerCase().includes(state.search))
      && active.every(([k, , , test]) => test(t, selects[k].value)));
    count.textContent = `${rows.length} of ${tasks.length} episodes`;
    const trs = rows.slice(0, state.shown).map((t) =>
      el("tr", { class: "clickable task-row", "data-task": t.task_id, "data-episode": t.episode, onclick: () => (location.hash = `#/run/${runId}/ep/${encodeURIComponent(t.episode)}`) },
        el("td", {}, el("a", { href: `#/run/${runId}/ep/${encodeURIComponent(t.episode)}`, text: t.task_id })),
        el("td", { class: "num", text: t.trial }),
        el("td", { class: outcomeClass(t), title: t.invalid_cause || "", text: outcome(t) }),
        el("td", { class: "num", text: num(t.score, 2) }),
        el("td", { class: "num", text: t.steps }),
        el("td", { text: t.termination }),
        el("td", { text: t.failure_type || "" }),
        el("td", { text: t.device_combo }),
        el("td", { text: t.pattern }),
        el("td", { text: t.difficulty })));
    const parts = [table(["Task", "Trial", "Outcome", "Score", "Steps", "Termination", "Type", "Devices", "Pattern", "Difficulty"], trs)];
    if (rows.length > state.shown) parts.push(el("button", { text: `Show ${Math.min(PAGE, rows.length - state.shown)} more`, onclick: () => { state.shown += PAGE; render(); } }));
    tableBox.replaceChildren(...parts);
  }
  render();
  if (run.status === "running") {
    // the run is still writing: re-read its rows and metrics as results.jsonl grows
    startPoll(async () => {
      const fresh = await api(`/api/runs/${runId}/tasks`, true);
      if (fresh.length !== tasks.length) {
        tasks.splice(0, tasks.length, ...fresh);
        render();
        api(`/api/runs/${runId}/metrics`, true).then((m) => metricsBox.replaceChildren(metricsTable(m)));
      }
    });
  }
  api(`/api/runs/${runId}/metrics`).then((m) => metricsBox.replaceChildren(metricsTable(m))).catch((e) => metricsBox.replaceChildren(el("p", { class: "bad", text: e.message })));
  api(`/api/runs/${runId}/diagnoses`).then((d) => {
    for (const t of tasks) t.failure_type = d.by_task[t.episode] ? d.by_task[t.episode].failure_type : "";
    failBox.replaceChildren(failureTables(d.summary));
    render();
  }).catch((e) => failBox.replaceChildren(el("p", { class: "bad", text: e.message })));
}

// ------------------------------------------------------------------ one episode
function jsonBlock(value) {
  return el("pre", { text: JSON.stringify(value, null, 2) });
}

function messageText(content) {
  // A chat message's content: a string, or OpenAI's parts (text and image placeholders).
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (p && p.type === "text" ? p.text : `[${(p && p.type) || "part"}]`)).join("\n");
  return JSON.stringify(content, null, 2);
}

function callsBlock(calls) {
  // Prompts (when logged in full) and model replies of one step, in order.
  return el("details", {}, el("summary", { text: `model calls (${calls.length})` }), ...calls.map((c, i) => {
    const box = el("div", { class: "call" }, el("div", { class: "muted", text: `#${i + 1} ${c.role || ""} · ${c.model || ""} · tokens ${c.tokens_in ?? "?"}/${c.tokens_out ?? "?"}` }));
    if (c.prompt) {
      box.append(el("details", {}, el("summary", { text: `prompt (${c.prompt.length} messages)` }),
        ...c.prompt.map((m) => el("div", { class: "msg" }, el("strong", { text: m.role || "?" }), el("pre", { text: messageText(m.content) })))));
    } else if (c.prompt_sha256) {
      box.append(el("div", { class: "muted", text: `prompt sha256 ${c.prompt_sha256} (run with --log-prompts full to keep prompts)` }));
    }
    if (c.reply) {
      const r = c.reply;
      box.append(el("div", { class: "msg" }, el("strong", { text: "reply" }),
        el("pre", { text: [r.content || "", ...(r.tool_calls || []).map((t) => `${t.name}(${t.arguments})`), r.refusal ? `refusal: ${r.refusal}` : ""].filter(Boolean).join("\n") })));
    }
    return box;
  }));
}

function stepCard(runId, taskId, s) {
  const a = s.action || {};
  const card = el("section", { class: `step ${s.ok ? "passed" : "failed"}`, id: `step-${s.step}`, "data-step": s.step });
  card.append(el("h3", {}, `Step ${s.step} `, el("span", { class: "pill", text: a.device || "global" }), " ", el("code", { text: a.action || "?" })));
  if (a.args && Object.keys(a.args).length) card.append(jsonBlock(a.args));
  card.append(el("div", { class: s.ok ? "ok" : "bad" }, s.ok ? "ok" : `error ${s.error_code || ""}`, ": ", el("span", { class: "feedback", text: s.message })));
  if (s.data !== null && s.data !== undefined) card.append(el("details", {}, el("summary", { text: "data" }), jsonBlock(s.data)));
  const meta = [s.virtual_time ? `virtual time ${s.virtual_time}` : null, s.tokens_in || s.tokens_out ? `tokens ${s.tokens_in}/${s.tokens_out}` : null,
    s.sources_seen && s.sources_seen.length ? `source value(s) seen: ${s.sources_seen.join(", ")}` : null].filter(Boolean);
  if (meta.length) card.append(el("div", { class: "muted", text: meta.join(" · ") }));
  if (s.observation && Object.keys(s.observation).length) {
    card.append(el("details", { class: "observation" }, el("summary", { text: "what the agent saw" }),
      ...Object.entries(s.observation).map(([device, text]) => el("div", {}, el("strong", { text: device }), el("pre", { text: text })))));
  }
  const notes = s.agent_notes || {};
  const seen = notes.images && typeof notes.images === "object" ? Object.entries(notes.images) : [];
  const calls = Array.isArray(notes.calls) && notes.calls.length ? callsBlock(notes.calls) : null;
  if (seen.length) {
    // the images the model saw (kept as images/<sha256>.png), beside its prompt
    const images = el("div", { class: "seen" }, ...seen.map(([device, rel]) => el("figure", {},
      el("img", { class: "model-image", loading: "lazy", alt: `${device}: what the model saw`,
        src: `/files/${runId}/${encodeURIComponent(taskId)}/images/${encodeURIComponent(String(rel).replace(/^images\//, ""))}` }),
      el("figcaption", { text: `${device} (sent to the model)` }))));
    card.append(el("div", { class: "beside" }, calls || el("div", { class: "muted", text: "no model calls logged" }), images));
  } else if (calls) card.append(calls);
  if (notes.text_only) card.append(el("div", { class: "muted text-only", text: "text-only: no image was sent" }));
  const otherNotes = Object.fromEntries(Object.entries(notes).filter(([k]) => !["calls", "model", "model_latency_s", "images", "text_only"].includes(k)));
  if (Object.keys(otherNotes).length) card.append(el("details", {}, el("summary", { text: "agent notes" }), jsonBlock(otherNotes)));
  if (s.screenshots && s.screenshots.length) {
    card.append(el("div", { class: "shots" }, ...s.screenshots.map((name) =>
      el("figure", {}, el("img", { class: "screenshot", loading: "lazy", alt: name, src: `/files/${runId}/${encodeURIComponent(taskId)}/${encodeURIComponent(name)}` }),
        el("figcaption", { text: name })))));
  }
  return card;
}

async function viewEpisode(runId, taskId) {
  const runs = await api("/api/runs");
  const run = runs[runId];
  setCrumbs([["runs", "#/"], [run ? run.label : `run ${runId}`, `#/run/${runId}`], [taskId, `#/run/${runId}/ep/${encodeURIComponent(taskId)}`]]);
  const ep = await api(`/api/runs/${runId}/episodes/${encodeURIComponent(taskId)}`);
  const r = ep.result;
  const trials = ep.trials || [];
  const parts = [
    el("h2", { text: r.task_id + (trials.length > 1 ? ` (trial ${r.trial} of ${trials.length})` : "") }),
    ...(trials.length > 1 ? [el("nav", { class: "trials", "aria-label": "trials" }, ...trials.map((k, i) =>
      el("a", { class: k === taskId ? "chip current" : "chip", href: `#/run/${runId}/ep/${encodeURIComponent(k)}`, text: `trial ${i + 1}` })))] : []),
    ...(r.valid === false ? [el("p", { class: "bad", text: `Invalid episode (not scored): ${r.invalid_cause || "environment failure"}` })] : []),
    ...(r.instruction ? [el("p", { class: "instruction" }, el("strong", { text: "Instruction: " }), el("span", { text: r.instruction }))] : []),
    table(["Outcome", "Score", "Steps", "Termination", "Duration (s)", "Agent", "Devices"],
      [[outcome(r), num(r.score, 3), String(r.steps), r.termination, num(r.duration_s, 3), r.agent, r.device_combo]]),
  ];
  if (r.error) parts.push(el("p", { class: "bad", text: r.error }));
  if (ep.diagnosis) {
    const d = ep.diagnosis;
    parts.push(el("div", { class: "diag" }, el("strong", { text: `${d.failure_type} · ${d.mode.replace("_", " ")}` }), el("div", { text: d.reason })));
  }
  parts.push(el("h2", { text: "Evaluator trace" }));
  parts.push(table(["Condition", "Device", "Check", "Result", "Detail", "After setup", "Holds on"],
    r.conditions.map((c) => el("tr", {},
      el("td", { text: c.id + (c.required ? "" : " (optional)") + (c.scored ? "" : " (unscored)") }),
      el("td", { text: c.device }), el("td", { text: c.check || "" }),
      el("td", { class: c.passed ? "ok" : "bad", text: c.passed ? "pass" : "fail" }),
      el("td", { text: c.detail }),
      el("td", { class: "muted", text: c.initial_detail == null ? "" : c.initial_detail }),
      el("td", { text: (c.also_passes_on || []).join(", ") })))));
  parts.push(el("h2", { text: `Steps (${ep.steps.length})` }));
  if (ep.steps.length) {
    // A strip of step chips (red = the step failed); a click scrolls that step into view.
    parts.push(el("nav", { class: "strip", "aria-label": "steps" }, ...ep.steps.map((s) =>
      el("button", { class: `chip ${s.ok ? "passed" : "failed"}`, title: `${s.step}: ${(s.action || {}).action || "?"}`, text: s.step,
        onclick: () => document.getElementById(`step-${s.step}`).scrollIntoView({ block: "start" }) }))));
  }
  if (!ep.trajectory_found) parts.push(el("p", { class: "muted", text: "No steps.jsonl for this episode." }));
  const steps = el("div", { id: "steps" }, ...ep.steps.map((s) => stepCard(runId, taskId, s)));
  parts.push(steps);
  for (const e of ep.errors) parts.push(el("p", { class: "bad", text: e }));
  app.replaceChildren(...parts);
}

// ------------------------------------------------------------------ routing
async function route() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  stopPoll();
  try {
    if (parts[0] === "compare" && parts.length === 3) await viewCompare(Number(parts[1]), Number(parts[2]));
    else if (parts[0] === "side" && parts.length >= 4) await viewSide(Number(parts[1]), Number(parts[2]), decodeURIComponent(parts.slice(3).join("/")));
    else if (parts[0] === "run" && parts.length === 2) await viewRun(Number(parts[1]));
    else if (parts[0] === "run" && parts[2] === "ep" && parts.length >= 4) await viewEpisode(Number(parts[1]), decodeURIComponent(parts.slice(3).join("/")));
    else await viewRuns();
  } catch (err) {
    showError(err);
  }
  window.scrollTo(0, 0);
}

window.addEventListener("hashchange", route);
route();
