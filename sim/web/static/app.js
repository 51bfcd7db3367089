// The workbench's own script: it sends what the designer asks to the server and shows what comes
// back. Every check, number, chart and narration is the server's (combatsim's own functions);
// this file only moves them between the page and the server.
"use strict";

const TOKEN = document.querySelector('meta[name="combatsim-token"]').content;

async function api(method, url, body) {
  const options = { method, headers: {} };
  if (method !== "GET") {
    options.headers["X-Combatsim-Token"] = TOKEN;
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body || {});
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch (error) {
    return { ok: false, status: 0, data: { error: "the workbench does not answer (is it still running?)" } };
  }
  let data = {};
  try { data = await response.json(); } catch (error) { data = { error: `the server answered ${response.status}` }; }
  return { ok: response.ok, status: response.status, data };
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const number = (n) => (n === null || n === undefined ? "?" : Number(n).toLocaleString("en-US"));

// -- the runs panel ---------------------------------------------------------------------------

class JobsPanel {
  constructor(node, onDone) {
    this.node = node;
    this.filter = node.dataset.filter || "";
    this.onDone = onDone;
    this.seen = new Map();
    this.timer = null;
    this.poll();
  }

  async poll() {
    clearTimeout(this.timer);
    const answer = await api("GET", "/api/jobs");
    if (answer.ok) this.render(answer.data);
    const active = answer.ok && answer.data.some((job) => job.state === "waiting" || job.state === "running");
    this.timer = setTimeout(() => this.poll(), active ? 300 : 2000);
  }

  render(jobs) {
    const shown = jobs.filter((job) => !this.filter || job.scenario === this.filter);
    this.node.replaceChildren(...(shown.length ? shown.map((job) => this.card(job)) : [el("p", { class: "muted" }, "No runs yet.")]));
    for (const job of shown) {
      const before = this.seen.get(job.id);
      if (before && before !== job.state && job.state === "done" && this.onDone) this.onDone(job);
      this.seen.set(job.id, job.state);
    }
  }

  card(job) {
    const share = job.total ? Math.min(job.done / job.total, 1) : null;
    const bar = el("progress", { max: "1", value: share === null ? undefined : String(share), "aria-label": "progress" });
    const count = job.total ? `${number(job.done)} of ${number(job.total)} combats` : (job.state === "running" ? "under way" : "");
    const card = el("div", { class: `job ${job.state}`, "data-job": job.id, "data-state": job.state, "data-updates": String(job.updates) },
      el("div", { class: "job-head" },
        el("span", { class: "job-title" }, job.title),
        el("span", { class: "tag soft job-state" }, job.cancelling ? "stopping" : job.state)),
      el("div", { class: "job-progress" }, bar, el("span", { class: "job-count" }, count)),
      job.step ? el("div", { class: "muted job-step" }, job.step) : null,
      job.message ? el("div", { class: "job-message" }, job.message) : null,
      job.problems.length ? el("ol", { class: "problems" }, job.problems.map((p) => el("li", {}, p))) : null,
    );
    const buttons = el("div", { class: "job-buttons" });
    if (job.state === "waiting" || job.state === "running") {
      buttons.append(el("button", { type: "button", class: "small cancel", onclick: () => this.cancel(job.id) }, "Cancel"));
    }
    if (job.state === "done" || job.state === "cancelled") {
      buttons.append(el("a", { class: "button small open-results", href: `/results?path=${encodeURIComponent(job.out)}` }, "Open the results"));
    }
    card.append(buttons);
    return card;
  }

  async cancel(id) {
    await api("POST", `/api/jobs/${id}/cancel`);
    this.poll();
  }
}

async function startJob(body) {
  const answer = await api("POST", "/api/jobs", body);
  if (!answer.ok) {
    const problems = answer.data.problems ? "\n" + answer.data.problems.join("\n") : "";
    alert(answer.data.error + problems);
    return null;
  }
  return answer.data;
}

// -- the editor page ----------------------------------------------------------------------------

function editorPage() {
  const page = document.getElementById("editor-page");
  const pathInput = document.getElementById("file-path");
  const saveState = document.getElementById("save-state");
  const checkState = document.getElementById("check-state");
  const problemsList = document.getElementById("problems");
  const facts = document.getElementById("scenario-facts");
  const panel = new JobsPanel(document.getElementById("jobs"));
  let version = null;      // the version opened (null: a new file)
  let savedText = null;    // what is on disk as far as the editor knows
  let editor = null;
  let sections = [];
  let readonly = false;

  const dirty = () => editor && editor.getText() !== savedText;
  const showState = () => {
    saveState.textContent = readonly ? "a bundled starter: save it under a name of yours"
      : !pathInput.value ? "not saved yet" : dirty() ? "unsaved changes" : "saved";
    page.dataset.dirty = dirty() ? "yes" : "no";
  };

  async function check(text) {
    checkState.textContent = "checking…";
    const answer = await api("POST", "/api/check", { path: pathInput.value || "untitled.yaml", text });
    if (!answer.ok) { checkState.textContent = "could not check"; return []; }
    const result = answer.data;
    problemsList.replaceChildren(...result.problems.map((p) =>
      el("li", { "data-line": p.line || "" },
        el("button", { type: "button", class: "link", onclick: () => editor.gotoLine(p.line) }, p.line ? `line ${p.line}` : "file"),
        " ", p.message)));
    checkState.textContent = result.ok ? "ok" : `${result.problems.length} problem${result.problems.length === 1 ? "" : "s"}`;
    checkState.className = result.ok ? "tag good" : "tag bad";
    page.dataset.checked = result.ok ? "ok" : "problems";
    if (result.ok) {
      const s = result.scenario;
      sections = s.sections;
      facts.textContent = `${s.name} · rules: ${s.rules} · ${number(s.runs)} combats, seed ${s.seed}` + (s.question ? ` — ${s.question}` : "");
    } else {
      facts.textContent = "";
    }
    for (const button of document.querySelectorAll("[data-needs]")) {
      button.hidden = !sections.includes(button.dataset.needs);
    }
    return result.problems.map((p) => ({ line: p.line, message: p.message }));
  }

  async function save(replaceVersion) {
    const name = pathInput.value.trim();
    if (!name) { pathInput.focus(); saveState.textContent = "give the file a name first"; return false; }
    const text = editor.getText();
    const answer = await api("POST", "/api/save", { path: name, text, version: replaceVersion !== undefined ? replaceVersion : version });
    if (answer.status === 409) { conflict(answer.data, text); return false; }
    if (!answer.ok) { saveState.textContent = answer.data.error; return false; }
    version = answer.data.version;
    savedText = text;
    readonly = false;
    page.dataset.path = name;
    panel.filter = name;
    history.replaceState(null, "", `/edit?path=${encodeURIComponent(name)}`);
    showState();
    return true;
  }

  const dialog = document.getElementById("conflict");
  let disk = null;
  function conflict(data, mine) {
    disk = data;
    document.getElementById("conflict-text").textContent = data.error;
    document.getElementById("conflict-disk").textContent = data.disk;
    document.getElementById("conflict-mine").textContent = mine;
    dialog.showModal();
  }
  document.getElementById("conflict-close").onclick = () => dialog.close();
  document.getElementById("conflict-take").onclick = () => {
    editor.setText(disk.disk); version = disk.version; savedText = disk.disk; dialog.close(); showState();
  };
  document.getElementById("conflict-replace").onclick = async () => { dialog.close(); await save(disk.version || null); };
  document.getElementById("conflict-copy").onclick = async () => {
    const name = pathInput.value.replace(/(\.ya?ml)?$/, "-mine.yaml");
    pathInput.value = name; version = null; dialog.close(); await save(null);
  };

  async function run(kind) {
    if (dirty() || !pathInput.value) {
      if (readonly && !dirty()) {
        // a bundled starter as it is: run it as it is
      } else if (!(await save())) return;
    }
    const scenario = readonly && !dirty() ? page.dataset.starter : pathInput.value;
    const body = { kind, scenario, runs: document.getElementById("runs").value || null, seed: document.getElementById("seed").value || null, options: {} };
    if (kind === "balance") {
      body.options = { param: document.getElementById("balance-param").value, target: Number(document.getElementById("balance-target").value) };
    }
    panel.filter = scenario;
    await startJob(body);
    panel.poll();
  }
  for (const button of document.querySelectorAll("[data-kind]")) button.onclick = () => run(button.dataset.kind);
  document.getElementById("save").onclick = () => save();
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key === "s") { event.preventDefault(); save(); }
  });
  pathInput.addEventListener("input", showState);
  window.addEventListener("beforeunload", (event) => { if (dirty()) { event.preventDefault(); event.returnValue = ""; } });

  (async () => {
    const schema = await api("GET", "/api/schema");
    const source = page.dataset.path || page.dataset.starter;
    let text = "";
    if (source) {
      const file = await api("GET", `/api/file?path=${encodeURIComponent(source)}`);
      if (!file.ok) { saveState.textContent = file.data.error; return; }
      text = file.data.text;
      readonly = file.data.readonly;
      if (!readonly) { version = file.data.version; savedText = text; } else { savedText = text; pathInput.value = ""; }
    }
    editor = CombatsimEditor.create(document.getElementById("editor"), {
      doc: text,
      schema: schema.ok ? schema.data : null,
      check,
      onChange: showState,
    });
    page.dataset.ready = "yes";
    showState();
  })();
}

// -- the results page ---------------------------------------------------------------------------

function resultsPage() {
  const page = document.getElementById("results-page");
  const path = page.dataset.path;

  const dialog = document.getElementById("chart-dialog");
  for (const button of document.querySelectorAll(".chart-open")) {
    button.onclick = () => {
      const figure = button.closest("figure");
      document.getElementById("chart-large").src = button.querySelector("img").src;
      document.getElementById("chart-large").alt = button.querySelector("img").alt;
      document.getElementById("chart-large-caption").textContent = figure.querySelector("figcaption").textContent;
      dialog.showModal();
    };
  }
  document.getElementById("chart-close").onclick = () => dialog.close();

  const replayButton = document.getElementById("replay");
  if (replayButton) {
    replayButton.onclick = async () => {
      const combat = document.getElementById("replay-combat").value || 0;
      const section = document.getElementById("replay-section");
      const text = document.getElementById("replay-text");
      text.textContent = "replaying…";
      section.dataset.state = "loading";
      section.hidden = false;
      const answer = await api("GET", `/api/replay?path=${encodeURIComponent(path)}&combat=${encodeURIComponent(combat)}`);
      text.textContent = answer.ok ? answer.data.text : answer.data.error;
      section.dataset.state = answer.ok ? "done" : "failed";
      section.scrollIntoView({ behavior: "smooth", block: "start" });
    };
    document.getElementById("replay-close").onclick = () => { document.getElementById("replay-section").hidden = true; };
  }

  async function writeReport() {
    const answer = await api("POST", "/api/report", { path });
    if (!answer.ok) { alert(answer.data.error); return null; }
    return answer.data.file;
  }
  document.getElementById("make-report").onclick = async () => {
    const file = await writeReport();
    if (file) window.location.href = `/download?path=${encodeURIComponent(file)}`;
  };
  document.getElementById("show-report").onclick = async () => {
    const file = await writeReport();
    if (!file) return;
    const section = document.getElementById("report-section");
    document.getElementById("report-frame").src = `/report?path=${encodeURIComponent(file)}`;
    section.hidden = false;
    section.scrollIntoView({ behavior: "smooth", block: "start" });
  };

  const tweak = document.getElementById("tweak");
  if (tweak) {
    const result = document.getElementById("tweak-result");
    const panel = new JobsPanel(document.getElementById("jobs"), async (job) => {
      if (job.kind !== "tweak") return;
      const answer = await fetch(`/results?path=${encodeURIComponent(job.out)}`);
      const doc = new DOMParser().parseFromString(await answer.text(), "text/html");
      const verdict = doc.getElementById("verdict");
      const arms = doc.getElementById("table-arms");
      const differences = doc.getElementById("table-differences");
      result.hidden = false;
      result.replaceChildren(
        el("h2", {}, "This run next to the changed one (the same combats, paired)"),
        verdict ? el("p", { class: "verdict small" }, verdict.textContent) : null,
        arms ? document.importNode(arms, true) : null,
        differences ? document.importNode(differences, true) : null,
        el("a", { class: "button small", href: `/results?path=${encodeURIComponent(job.out)}` }, "Open the comparison"));
      result.scrollIntoView({ behavior: "smooth", block: "start" });
    });
    tweak.onclick = async () => {
      const changes = {};
      for (const input of document.querySelectorAll("#stats input")) {
        if (input.value !== "" && Number(input.value) !== Number(input.dataset.value)) changes[input.dataset.path] = Number(input.value);
      }
      if (!Object.keys(changes).length) { alert("Change a value first."); return; }
      await startJob({ kind: "tweak", scenario: path, options: { changes } });
      panel.poll();
    };
  }
}

function indexPage() {
  new JobsPanel(document.getElementById("jobs"));
}

document.addEventListener("DOMContentLoaded", () => {
  const page = document.body.dataset.page;
  if (page === "editor") editorPage();
  else if (page === "results") resultsPage();
  else if (page === "index") indexPage();
});
