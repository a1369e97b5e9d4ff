// The team hooks dashboard. It calls AdminService through the Connect
// protocol's JSON form with the admin token typed into the page, kept in
// this tab's sessionStorage. Everything that comes from the server is put
// into the page as text (textContent, input values), never as HTML.
"use strict";

const TOKEN_KEY = "agenthooks.adminToken";
const TEAM_KEY = "agenthooks.team";
const SERVICE = "agenthooks.team.v1.AdminService/";

const $ = (id) => document.getElementById(id);

// state is what the page shows: the teams, the chosen team's hooks by
// id, and the hook being edited (null: a new one).
const state = { teams: [], teamId: "", hooks: new Map(), editing: null };

// ApiError is a Connect error: its code ("invalid_argument", …) and the
// server's message.
class ApiError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

// call posts one request to AdminService and returns the decoded answer.
async function call(method, body) {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) throw new ApiError("unauthenticated", "sign in with an admin token");
  let res;
  try {
    // Relative to the page, so a proxy serving the server under a path
    // prefix works too.
    res = await fetch(new URL(SERVICE + method, document.baseURI), {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "Connect-Protocol-Version": "1",
        "Authorization": "Bearer " + token,
      },
      body: JSON.stringify(body),
      credentials: "omit",
      cache: "no-store",
    });
  } catch (e) {
    throw new ApiError("unavailable", "cannot reach the team server (" + e.message + ")");
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    // Not JSON: an error page from a proxy, say.
  }
  if (!res.ok) {
    if (data && typeof data.code === "string") {
      throw new ApiError(data.code, data.message || data.code);
    }
    throw new ApiError("unknown", "the server answered " + res.status + " " + res.statusText);
  }
  if (data === null) throw new ApiError("unknown", "the server's answer is not JSON");
  return data;
}

// Messages.

let statusTimer = 0;

function showStatus(text) {
  $("status").textContent = text;
  clearTimeout(statusTimer);
  statusTimer = setTimeout(() => { $("status").textContent = ""; }, 4000);
}

function showError(err) {
  const text = err instanceof ApiError ? err.code + ": " + err.message : String(err && err.message || err);
  $("error-text").textContent = text;
  $("error").hidden = false;
}

function clearError() {
  $("error").hidden = true;
  $("error-text").textContent = "";
}

// guarded runs an action for a user's gesture: errors are shown, and a
// token the server refuses sends the user back to the sign-in form.
// busy counts the actions under way; the page says it is busy (aria-busy)
// until the last one has rendered, for screen readers and for scripts
// that drive the page.
let busy = 0;

async function guarded(action) {
  clearError();
  document.body.setAttribute("aria-busy", String(++busy > 0));
  try {
    await action();
  } catch (err) {
    showError(err);
    if (err instanceof ApiError && err.code === "unauthenticated") signOut(false);
  } finally {
    document.body.setAttribute("aria-busy", String(--busy > 0));
  }
}

// Signing in and out.

function showSignedIn(signedIn) {
  $("sign-in").hidden = signedIn;
  $("app").hidden = !signedIn;
  $("sign-out").hidden = !signedIn;
  if (!signedIn) $("token").focus();
}

function signOut(clearMessages) {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(TEAM_KEY);
  state.teams = [];
  state.teamId = "";
  state.hooks.clear();
  $("token").value = "";
  hideSecret();
  closeEditor();
  if (clearMessages) clearError();
  showSignedIn(false);
}

async function signIn(token) {
  sessionStorage.setItem(TOKEN_KEY, token);
  try {
    await loadTeams();
  } catch (err) {
    sessionStorage.removeItem(TOKEN_KEY);
    throw err;
  }
  $("token").value = "";
  showSignedIn(true);
}

// Teams.

async function loadTeams(selectId) {
  const data = await call("ListTeams", {});
  state.teams = data.teams || [];
  const select = $("team");
  select.replaceChildren();
  for (const t of state.teams) {
    const opt = document.createElement("option");
    opt.value = t.id;
    opt.textContent = t.name + " (id " + t.id + ")";
    select.append(opt);
  }
  const wanted = selectId || sessionStorage.getItem(TEAM_KEY) || "";
  const pick = state.teams.find((t) => t.id === wanted) || state.teams[0];
  if (pick) {
    select.value = pick.id;
    await selectTeam(pick.id);
  } else {
    state.teamId = "";
    renderHooks([]);
    renderHistory([]);
    $("revision").textContent = "no teams yet: create one";
    $("new-hook").disabled = true;
  }
}

async function selectTeam(id) {
  state.teamId = id;
  resetFleetPages();
  sessionStorage.setItem(TEAM_KEY, id);
  closeEditor();
  $("new-hook").disabled = false;
  await refresh();
}

async function createTeam(name) {
  const data = await call("CreateTeam", { name });
  $("new-team-name").value = "";
  await loadTeams(data.team.id);
  showStatus("Created team " + data.team.name + ".");
}

// Hooks and history.

async function refresh() {
  if (!state.teamId) return;
  const [hooks, history] = await Promise.all([
    call("ListHooks", { teamId: state.teamId }),
    call("ListHistory", { teamId: state.teamId, limit: 100 }),
  ]);
  $("revision").textContent = "revision " + (hooks.revision || "0");
  renderHooks(hooks.hooks || [], hooks.problems || []);
  renderHistory(history.changes || []);
  await refreshTokens();
  await Promise.all([refreshFleet(), refreshAudit()]);
}

// Tokens: this team's member tokens and every admin token; a new
// token's secret is shown once.

async function refreshTokens() {
  const data = await call("ListTokens", {});
  const tokens = (data.tokens || []).filter((t) => t.role === "admin" || t.teamId === state.teamId);
  const body = $("tokens").tBodies[0];
  const rows = [];
  for (const t of tokens) {
    const row = document.createElement("tr");
    row.dataset.id = t.id;
    row.dataset.name = t.name;
    cell(row, t.id);
    cell(row, t.name, "mono nowrap");
    cell(row, t.role);
    cell(row, formatTime(t.createdAtUnixMs), "nowrap");
    cell(row, "", "actions").append(button("Revoke", "revoke danger", () => revokeToken(t)));
    rows.push(row);
  }
  body.replaceChildren(...rows);
  // The audit's token filter: this team's member tokens.
  const filter = $("filter-token");
  const chosen = filter.value;
  const any = document.createElement("option");
  any.value = "";
  any.textContent = "any token";
  const options = [any];
  for (const t of tokens.filter((t) => t.role === "member")) {
    const opt = document.createElement("option");
    opt.value = t.id;
    opt.textContent = t.name;
    options.push(opt);
  }
  filter.replaceChildren(...options);
  filter.value = tokens.some((t) => t.id === chosen) ? chosen : "";
}

async function createToken() {
  const role = $("token-role").value;
  const req = { name: $("token-name").value.trim(), role };
  if (role === "member") req.teamId = state.teamId;
  const data = await call("CreateToken", req);
  $("token-form").reset();
  $("new-secret-name").textContent = data.token.name;
  $("new-secret-value").textContent = data.secret;
  $("new-secret").hidden = false;
  await refreshTokens();
}

function hideSecret() {
  $("new-secret-value").textContent = "";
  $("new-secret").hidden = true;
}

async function revokeToken(t) {
  if (!confirm("Revoke the token " + t.name + "? Every machine or person using it is refused at once.")) return;
  await call("RevokeToken", { id: t.id });
  await refreshTokens();
  showStatus("Revoked " + t.name + ".");
}

// The fleet: the team's counts, and one page of its machines at a time
// (the server orders them stale first, the longest silent first, then
// the latest sync first, that order fixed by the first page for the
// pages after it), with the filters.

const FLEET_PAGE = 100;

// fleet holds the tokens of the pages before the one shown (so that
// Previous can go back), the next page's token, and the filters applied
// (page tokens go with the filters of their first page, whatever the
// form holds since).
const fleet = { before: [], current: "", next: "", filters: {} };

function resetFleetPages() {
  fleet.before = [];
  fleet.current = "";
  fleet.next = "";
  fleet.filters = {
    staleOnly: $("fleet-stale").checked,
    behindOnly: $("fleet-behind").checked,
    prefix: $("fleet-prefix").value.trim(),
    version: $("fleet-version").value.trim(),
  };
}

async function refreshFleet() {
  let data;
  try {
    data = await call("ListMachines", { teamId: state.teamId, pageSize: FLEET_PAGE, pageToken: fleet.current, ...fleet.filters });
  } catch (e) {
    // A listing's pages last a quarter of an hour: past that, the
    // first page again.
    if (!(e instanceof ApiError) || e.code !== "failed_precondition" || !fleet.current) throw e;
    fleet.before = [];
    fleet.current = "";
    fleet.next = "";
    data = await call("ListMachines", { teamId: state.teamId, pageSize: FLEET_PAGE, pageToken: "", ...fleet.filters });
  }
  const machines = data.machines || [];
  const body = $("machines").tBodies[0];
  const rows = [];
  for (const m of machines) {
    const row = document.createElement("tr");
    const mc = m.machine || {};
    row.dataset.machine = mc.id || "";
    if (m.stale) row.className = "stale";
    cell(row, mc.hostname || "", "nowrap");
    cell(row, mc.id || "", "mono");
    cell(row, mc.os || "");
    cell(row, mc.version || "", "mono");
    cell(row, mc.installedRevision || "0");
    cell(row, m.behind || "0");
    cell(row, formatTime(m.lastSyncUnixMs), "nowrap");
    cell(row, (mc.agents || []).join(", "));
    rows.push(row);
  }
  body.replaceChildren(...rows);
  fleet.next = data.nextPageToken || "";
  const c = data.counts || {};
  const total = Number(c.total || 0);
  $("no-machines").hidden = total > 0;
  $("fleet-summary").textContent = total ? total + " machine(s), " + (c.stale || "0") + " stale, " + (c.behind || "0") + " behind" : "";
  const named = (label, list) => list && list.length ? label + ": " + list.map((n) => n.name + " " + n.machines).join(", ") : "";
  $("fleet-versions").textContent = named("versions", (c.versions || []).map((n) => ({ name: n.name || "unknown", machines: n.machines })));
  $("fleet-agents").textContent = named("agents", c.agents);
  $("fleet-counts").hidden = total === 0;
  $("fleet-prev").disabled = fleet.before.length === 0;
  $("fleet-next").disabled = fleet.next === "";
  $("fleet-page").textContent = total ? "page " + (fleet.before.length + 1) + (machines.length ? "" : " (no machine matches)") : "";
}

async function fleetNext() {
  if (!fleet.next) return;
  fleet.before.push(fleet.current);
  fleet.current = fleet.next;
  await refreshFleet();
}

async function fleetPrev() {
  if (fleet.before.length === 0) return;
  fleet.current = fleet.before.pop();
  await refreshFleet();
}

// The audit: the team's setting, and what members' machines sent.

function currentTeam() {
  return state.teams.find((t) => t.id === state.teamId);
}

async function saveSandbox() {
  const data = await call("SetTeamSandbox", { teamId: state.teamId, sandboxJson: $("sandbox-json").value });
  const i = state.teams.findIndex((t) => t.id === data.team.id);
  if (i >= 0) state.teams[i] = data.team;
  await refresh();
  showStatus("Saved the sandbox of " + data.team.name + " (revision " + data.revision + ").");
}

async function refreshAudit() {
  const t = currentTeam();
  $("sandbox-json").value = t && t.sandboxJson ? t.sandboxJson : "";
  $("audit-on").checked = !!(t && t.audit);
  $("audit-days").value = t && t.auditRetentionDays ? String(t.auditRetentionDays) : "";
  const since = $("filter-since").value;
  const data = await call("ListDecisions", {
    teamId: state.teamId,
    scriptName: $("filter-script").value.trim(),
    machineId: $("filter-machine").value.trim(),
    agent: $("filter-agent").value.trim(),
    step: $("filter-step").value.trim(),
    tokenId: $("filter-token").value || "0",
    sinceUnixMs: since ? String(new Date(since).getTime()) : "0",
    limit: 500,
  });
  const decisions = data.decisions || [];
  const body = $("decisions").tBodies[0];
  body.replaceChildren();
  for (const d of decisions) {
    const row = document.createElement("tr");
    row.dataset.outcome = d.outcome || "";
    row.dataset.script = d.scriptName || "";
    // The server's time orders the list; the machine's is in the title.
    cell(row, formatTime(d.receivedAtUnixMs || d.atUnixMs), "nowrap").title = "on the machine: " + formatTime(d.atUnixMs);
    cell(row, d.hostname || d.machineId || "", "nowrap");
    cell(row, d.agent || "");
    cell(row, d.step || "", "mono nowrap");
    cell(row, d.outcome || "", "nowrap");
    cell(row, d.scriptName || "", "mono nowrap");
    cell(row, d.what || "", "mono text");
    cell(row, d.message || "", "text");
    body.append(row);
  }
  $("no-decisions").hidden = decisions.length > 0;
}

async function saveAudit() {
  const days = $("audit-days").value.trim();
  const data = await call("SetTeamAudit", {
    teamId: state.teamId,
    audit: $("audit-on").checked,
    auditRetentionDays: days === "" ? 0 : Number(days),
  });
  const i = state.teams.findIndex((t) => t.id === data.team.id);
  if (i >= 0) state.teams[i] = data.team;
  await refreshAudit();
  showStatus("Audit " + (data.team.audit ? "on" : "off") + " for " + data.team.name + ".");
}

function formatTime(ms) {
  if (!ms) return "";
  return new Date(Number(ms)).toLocaleString();
}

function cell(row, text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  row.append(td);
  return td;
}

function button(text, className, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.className = className;
  b.addEventListener("click", () => guarded(onClick));
  return b;
}

// renderProblems lists the rules stored hooks break, which make every
// member refuse the team's set.
function renderProblems(problems) {
  const list = $("problems").querySelector("ul");
  list.replaceChildren();
  for (const p of problems) {
    const h = state.hooks.get(p.hookId);
    const li = document.createElement("li");
    li.dataset.hook = p.hookId;
    li.textContent = (h ? h.scriptName : "hook " + p.hookId) + ": " + p.field + ": " + p.problem;
    list.append(li);
  }
  $("problems").hidden = problems.length === 0;
}

function renderHooks(hooks, problems = []) {
  state.hooks = new Map(hooks.map((h) => [h.id, h]));
  const broken = new Set(problems.map((p) => p.hookId));
  const body = $("hooks").tBodies[0];
  body.replaceChildren();
  for (const h of hooks) {
    const row = document.createElement("tr");
    row.dataset.id = h.id;
    row.dataset.script = h.scriptName;
    row.className = (h.isActive ? "active" : "inactive") + (broken.has(h.id) ? " broken" : "");
    cell(row, h.scriptName, "mono nowrap");
    cell(row, h.hookStep, "mono nowrap");
    cell(row, (h.operatingSystems || []).join(", ") || "all");
    cell(row, h.matcher || "", "mono");
    cell(row, h.timeoutSeconds ? h.timeoutSeconds + " s" : "default", "nowrap");
    cell(row, h.failClosed ? "yes" : "no");
    cell(row, h.isActive ? "active" : "inactive", "state nowrap");
    cell(row, [formatTime(h.updatedAtUnixMs), h.updatedBy ? "by " + h.updatedBy : ""].filter(Boolean).join(" "));
    const actions = cell(row, "", "actions");
    actions.append(
      button("Edit", "edit", async () => openEditor(h)),
      button(h.isActive ? "Deactivate" : "Activate", "toggle", () => setActive(h, !h.isActive)),
      button("Delete", "delete danger", () => deleteHook(h)),
    );
    body.append(row);
  }
  $("no-hooks").hidden = hooks.length > 0;
  renderProblems(problems);
}

function renderHistory(changes) {
  const body = $("history").tBodies[0];
  body.replaceChildren();
  for (const c of changes) {
    const row = document.createElement("tr");
    row.dataset.action = c.action;
    row.dataset.script = c.scriptName || "";
    cell(row, c.revision || "0");
    cell(row, formatTime(c.atUnixMs));
    cell(row, c.action, "action");
    cell(row, c.scriptName || "", "mono nowrap");
    cell(row, c.hookId || "");
    cell(row, c.actor || "");
    cell(row, "", "actions").append(button("Diff", "diff", () => showRevision(c.revision)));
    body.append(row);
  }
  $("no-history").hidden = changes.length > 0;
}

// A revision's diff: each change with its options and a line diff of its
// script, before and after.
async function showRevision(revision) {
  const data = await call("DiffRevision", { teamId: state.teamId, revision });
  const parts = [];
  for (const rc of data.changes || []) {
    const c = rc.change || {};
    const box = document.createElement("div");
    box.className = "change";
    box.dataset.script = c.scriptName || "";
    const h = document.createElement("h4");
    h.textContent = c.action + " " + (c.scriptName || "") + (c.actor ? " by " + c.actor : "");
    box.append(h);
    if (!rc.recorded) {
      const p = document.createElement("p");
      p.className = "muted";
      p.textContent = "made before the history kept scripts: no diff";
      box.append(p);
    } else {
      if ((rc.beforeOptions || "") !== (rc.afterOptions || "")) {
        box.append(diffBlock(optionLines(rc.beforeOptions), optionLines(rc.afterOptions), "options"));
      }
      if ((rc.beforeScript || "") !== (rc.afterScript || "")) {
        box.append(diffBlock(rc.beforeScript || "", rc.afterScript || "", "script"));
      }
    }
    parts.push(box);
  }
  $("revision-diff-title").textContent = "Revision " + revision;
  $("revision-diff-changes").replaceChildren(...parts);
  $("revision-diff").hidden = false;
}

// optionLines shows a hook's options (JSON) one per line.
function optionLines(json) {
  if (!json) return "";
  try {
    const o = JSON.parse(json);
    return Object.keys(o).map((k) => k + ": " + JSON.stringify(o[k]) + "\n").join("");
  } catch {
    return json + "\n";
  }
}

// diffBlock renders a line diff of a and b as text, each line marked.
function diffBlock(a, b, what) {
  const pre = document.createElement("pre");
  pre.className = "diff " + what;
  for (const [kind, text] of lineDiff(a, b)) {
    const span = document.createElement("span");
    span.className = kind === "+" ? "add" : kind === "-" ? "del" : "same";
    span.textContent = kind + text;
    pre.append(span);
  }
  return pre;
}

// lineDiff is a shortest edit of a's lines into b's: a longest common
// subsequence after the common head and tail (the whole middle as
// removed then added past a bound).
function lineDiff(a, b) {
  const split = (s) => (s === "" ? [] : s.replace(/\n$/, "").split("\n"));
  const x = split(a), y = split(b);
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  const out = x.slice(0, head).map((l) => [" ", l]);
  const mx = x.slice(head, x.length - tail), my = y.slice(head, y.length - tail);
  if (mx.length * my.length > 4e6) {
    out.push(...mx.map((l) => ["-", l]), ...my.map((l) => ["+", l]));
  } else {
    const lcs = Array.from({ length: mx.length + 1 }, () => new Int32Array(my.length + 1));
    for (let i = mx.length - 1; i >= 0; i--) {
      for (let j = my.length - 1; j >= 0; j--) {
        lcs[i][j] = mx[i] === my[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    let i = 0, j = 0;
    while (i < mx.length || j < my.length) {
      if (i < mx.length && j < my.length && mx[i] === my[j]) {
        out.push([" ", mx[i++]]);
        j++;
      } else if (i < mx.length && (j === my.length || lcs[i + 1][j] >= lcs[i][j + 1])) {
        out.push(["-", mx[i++]]);
      } else {
        out.push(["+", my[j++]]);
      }
    }
  }
  out.push(...x.slice(x.length - tail).map((l) => [" ", l]));
  return out;
}

async function setActive(h, active) {
  const data = await call("SetHookActive", { id: h.id, active });
  await refresh();
  showStatus((active ? "Activated " : "Deactivated ") + h.scriptName + " (revision " + data.revision + ").");
}

async function deleteHook(h) {
  if (!confirm("Delete the hook " + h.scriptName + "? Members' machines remove it at their next sync.")) return;
  const data = await call("DeleteHook", { id: h.id });
  if (state.editing && state.editing.id === h.id) closeEditor();
  await refresh();
  showStatus("Deleted " + h.scriptName + " (revision " + data.revision + ").");
}

// The editor.

function systemBoxes() {
  return Array.from(document.querySelectorAll("#systems input.os"));
}

function openEditor(h) {
  state.editing = h || null;
  $("editor-title").textContent = h ? "Edit " + h.scriptName + " (hook " + h.id + ")" : "New hook";
  $("script-name").value = h ? h.scriptName : "";
  $("step").value = h ? h.hookStep : "beforeShellExecution";
  const systems = new Set(h ? h.operatingSystems || [] : []);
  for (const box of systemBoxes()) box.checked = systems.has(box.value);
  $("matcher").value = h ? h.matcher || "" : "";
  $("timeout").value = h && h.timeoutSeconds ? String(h.timeoutSeconds) : "";
  $("fail-closed").checked = h ? !!h.failClosed : false;
  $("active").checked = h ? !!h.isActive : true;
  $("script").value = h ? h.scriptContent || "" : "";
  $("editor").hidden = false;
  $("script-name").focus();
}

function closeEditor() {
  state.editing = null;
  $("editor").hidden = true;
  $("hook-form").reset();
}

// hookFromForm reads the editor; the server checks every field and says
// what is wrong, so the page checks only what it must convert.
function hookFromForm() {
  const timeoutText = $("timeout").value.trim();
  const timeout = timeoutText === "" ? 0 : Number(timeoutText);
  if (!Number.isFinite(timeout) || timeout < 0) {
    throw new ApiError("invalid_argument", "timeout: give a number of seconds, 0 or more, or leave it empty for the engine's default");
  }
  return {
    hookStep: $("step").value,
    scriptName: $("script-name").value,
    operatingSystems: systemBoxes().filter((b) => b.checked).map((b) => b.value),
    isActive: $("active").checked,
    scriptContent: $("script").value,
    matcher: $("matcher").value,
    timeoutSeconds: timeout,
    failClosed: $("fail-closed").checked,
  };
}

async function saveHook() {
  const hook = hookFromForm();
  const save = $("save-hook");
  save.disabled = true; // one click, one change
  let data;
  try {
    if (state.editing) {
      hook.id = state.editing.id;
      data = await call("UpdateHook", { hook });
    } else {
      data = await call("CreateHook", { teamId: state.teamId, hook });
    }
  } finally {
    save.disabled = false;
  }
  closeEditor();
  await refresh();
  showStatus("Saved " + data.hook.scriptName + " (revision " + data.revision + ").");
}

// Wiring.

function start() {
  $("error-close").addEventListener("click", clearError);
  $("sign-in-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const token = $("token").value.trim();
    if (token) guarded(() => signIn(token));
  });
  $("sign-out").addEventListener("click", () => signOut(true));
  $("team").addEventListener("change", (e) => guarded(() => selectTeam(e.target.value)));
  $("new-team-form").addEventListener("submit", (e) => {
    e.preventDefault();
    guarded(() => createTeam($("new-team-name").value.trim()));
  });
  $("new-hook").addEventListener("click", () => openEditor(null));
  $("cancel-edit").addEventListener("click", closeEditor);
  $("hook-form").addEventListener("submit", (e) => {
    e.preventDefault();
    guarded(saveHook);
  });
  $("sandbox-form").addEventListener("submit", (e) => {
    e.preventDefault();
    guarded(saveSandbox);
  });
  $("audit-form").addEventListener("submit", (e) => {
    e.preventDefault();
    guarded(saveAudit);
  });
  $("fleet-filter").addEventListener("submit", (e) => {
    e.preventDefault();
    resetFleetPages();
    guarded(refreshFleet);
  });
  $("fleet-next").addEventListener("click", () => guarded(fleetNext));
  $("fleet-prev").addEventListener("click", () => guarded(fleetPrev));
  $("token-form").addEventListener("submit", (e) => {
    e.preventDefault();
    guarded(createToken);
  });
  $("new-secret-done").addEventListener("click", hideSecret);
  $("revision-diff-close").addEventListener("click", () => { $("revision-diff").hidden = true; });
  $("audit-filter").addEventListener("submit", (e) => {
    e.preventDefault();
    guarded(refreshAudit);
  });

  if (sessionStorage.getItem(TOKEN_KEY)) {
    showSignedIn(true);
    guarded(loadTeams);
  } else {
    showSignedIn(false);
  }
}

start();
