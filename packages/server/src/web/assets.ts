/**
 * The dashboard's stylesheet and script, served from this process (`/web/app.css`,
 * `/web/app.js`): no build step, no third-party code. The script calls the same `/v1` routes
 * programs use, with the session cookie; every value it shows goes in as text, never as markup.
 */
export const APP_CSS = `
:root { --fg: #1a1a1a; --muted: #4a4a4a; --bg: #ffffff; --card: #f6f7f9; --line: #c9ced6; --accent: #0b57d0; --danger: #b3261e;
  --low: #1e7a34; --medium: #8a6100; --high: #b3261e; --critical: #7a0d0d; font-family: system-ui, sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg); line-height: 1.5; font-size: 16px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: #fff; padding: 8px; z-index: 2; }
.top { display: flex; justify-content: space-between; align-items: center; padding: 12px 16px; border-bottom: 1px solid var(--line); gap: 8px; flex-wrap: wrap; }
.top nav { display: flex; gap: 12px; align-items: center; } .top form { margin: 0; }
.brand { font-weight: 700; font-size: 1.25rem; color: var(--fg); text-decoration: none; }
main { max-width: 960px; margin: 0 auto; padding: 16px; }
footer { max-width: 960px; margin: 0 auto; padding: 16px; color: var(--muted); font-size: .875rem; }
h1 { font-size: 1.6rem; margin: .5rem 0 1rem; } h2 { font-size: 1.2rem; margin-top: 0; }
.cards { display: grid; gap: 16px; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 16px; margin-bottom: 16px; }
label { display: block; font-weight: 600; margin: .5rem 0 .25rem; } .hint { font-weight: 400; color: var(--muted); }
input, select { width: 100%; padding: 10px; font-size: 1rem; border: 1px solid #6b7280; border-radius: 6px; background: #fff; color: var(--fg); }
button, .button { display: inline-block; margin-top: .75rem; padding: 10px 16px; font-size: 1rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; min-height: 44px; }
.secondary { background: #fff; color: var(--accent); } .danger { background: var(--danger); border-color: var(--danger); }
button.link { background: none; border: 0; color: var(--accent); text-decoration: underline; padding: 0; margin: 0; min-height: 0; }
:focus-visible { outline: 3px solid #f4b400; outline-offset: 2px; }
.row { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-end; } .row > div { min-width: 140px; } .row .grow { flex: 1 1 220px; }
.tabs { display: flex; flex-wrap: wrap; gap: 12px; margin-bottom: 16px; }
.error { color: var(--danger); font-weight: 600; } .notice { background: #fff4ce; padding: 8px 12px; border-radius: 6px; }
table { width: 100%; border-collapse: collapse; font-size: .9rem; } th, td { text-align: left; padding: 6px; border-bottom: 1px solid var(--line); vertical-align: top; word-break: break-word; }
.table-wrap { overflow-x: auto; }
.level { font-weight: 700; } .level-low { color: var(--low); } .level-medium { color: var(--medium); } .level-high { color: var(--high); } .level-critical { color: var(--critical); }
.secret { font-family: ui-monospace, monospace; background: #fff; border: 1px dashed var(--line); padding: 8px; word-break: break-all; }
svg.graph { display: block; width: 100%; max-width: 560px; height: auto; margin: 0 auto; background: #fff; border-radius: 8px; }
svg.graph .edge { stroke: #8a94a6; stroke-width: 1.5; }
svg.graph .node circle { fill: #6b7280; stroke: #fff; stroke-width: 2; } svg.graph .node.root circle { stroke: #1a1a1a; stroke-width: 3; }
svg.graph .risk-low circle { fill: var(--low); } svg.graph .risk-medium circle { fill: var(--medium); } svg.graph .risk-high circle { fill: var(--high); } svg.graph .risk-critical circle { fill: var(--critical); }
svg.graph text { font-size: 12px; fill: var(--fg); }
ul.signals { padding-left: 1.2rem; }
@media (max-width: 520px) { main { padding: 8px; } .card { padding: 12px; } }
`;

/** The site's icon (an "s" on the accent colour), served as /favicon.ico and /web/icon.svg. */
export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0b57d0"/><text x="16" y="23" font-family="system-ui,sans-serif" font-size="20" font-weight="700" fill="#fff" text-anchor="middle">s</text></svg>`;

export const APP_JS = `"use strict";
(function () {
  var $ = function (id) { return document.getElementById(id); };
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) { if (k === "text") e.textContent = attrs[k]; else e.setAttribute(k, attrs[k]); }
    (children || []).forEach(function (c) { e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }
  function api(method, path, body) {
    var init = { method: method, credentials: "same-origin", headers: { accept: "application/json" } };
    if (body !== undefined) { init.headers["content-type"] = "application/json"; init.body = JSON.stringify(body); }
    return fetch(path, init).then(function (r) {
      if (r.status === 204) return null;
      return r.json().catch(function () { return {}; }).then(function (j) {
        if (!r.ok) { var e = new Error((j && (j.detail || j.title)) || ("HTTP " + r.status)); e.status = r.status; throw e; }
        return j;
      });
    });
  }
  function show(target, node) { target.replaceChildren(node); }
  function fail(target) { return function (e) { show(target, el("p", { class: "error", role: "alert", text: e.message })); }; }
  function level(l) { return el("span", { class: "level level-" + l, text: l }); }

  function verdictView(v) {
    var signals = el("ul", { class: "signals" }, (v.signals || []).map(function (s) { return el("li", {}, [el("strong", { text: s.code }), " — " + s.message]); }));
    return el("div", { "data-testid": "verdict" }, [
      el("h3", { text: (v.entity && (v.entity.type + ": " + v.entity.value)) || "Verdict" }),
      el("p", {}, ["Risk ", level(v.risk_level), " · score " + v.risk_score + "/100 · confidence " + v.confidence + " · recommended: " + v.recommended_action]),
      v.summary ? el("p", { text: v.summary }) : el("span"),
      el("h4", { text: "Signals" }), signals,
    ]);
  }

  function historyQuery() {
    var f = $("history-form"); var q = new URLSearchParams();
    if (f.type.value) q.set("type", f.type.value);
    if (f.risk_level.value) q.set("risk_level", f.risk_level.value);
    if (f.since.value) q.set("since", new Date(f.since.value + "T00:00:00Z").toISOString());
    return q;
  }
  function loadHistory() {
    var q = historyQuery();
    $("export-link").setAttribute("href", "/v1/audit/export" + (q.toString() ? "?" + q : ""));
    q.set("limit", "50");
    return api("GET", "/v1/history?" + q).then(function (page) {
      if (!page.items.length) return show($("history-table"), el("p", { text: "No checks yet." }));
      var rows = page.items.map(function (i) {
        return el("tr", {}, [el("td", { text: new Date(i.evaluated_at).toLocaleString() }), el("td", { text: i.entity.type }), el("td", { text: i.entity.value }), el("td", {}, [level(i.risk_level)]), el("td", { text: String(i.risk_score) })]);
      });
      show($("history-table"), el("div", { class: "table-wrap" }, [el("table", { "data-testid": "history" }, [
        el("thead", {}, [el("tr", {}, ["When", "Type", "Entity", "Level", "Score"].map(function (h) { return el("th", { scope: "col", text: h }); }))]),
        el("tbody", {}, rows)])]));
    }).catch(fail($("history-table")));
  }

  function loadKeys() {
    return api("GET", "/v1/keys").then(function (r) {
      var rows = r.items.map(function (k) {
        var action = k.revoked_at ? el("span", { text: "revoked" }) : el("button", { type: "button", class: "secondary", "data-revoke": k.id, "aria-label": "Revoke key " + (k.name || k.prefix), text: "Revoke" });
        return el("tr", {}, [el("td", { text: k.name || "(no name)" }), el("td", { text: k.prefix }), el("td", { text: new Date(k.created_at).toLocaleDateString() }), el("td", {}, [action])]);
      });
      show($("key-list"), el("div", { class: "table-wrap" }, [el("table", { "data-testid": "keys" }, [
        el("thead", {}, [el("tr", {}, ["Name", "Key", "Created", ""].map(function (h) { return el("th", { scope: "col", text: h }); }))]),
        el("tbody", {}, rows)])]));
    }).catch(fail($("key-list")));
  }

  function loadUsage() {
    return api("GET", "/v1/usage").then(function (u) {
      var month = u.limits.per_month === null ? u.month.used + " checks this month (no monthly limit)" : u.month.used + " of " + u.limits.per_month + " checks this month";
      show($("usage"), el("p", { "data-testid": "usage", text: month + (u.limits.per_minute === null ? "" : "; up to " + u.limits.per_minute + " per minute") + "." }));
    }).catch(fail($("usage")));
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!$("screen-form")) return;
    $("screen-form").addEventListener("submit", function (ev) {
      ev.preventDefault();
      var f = ev.target; var body = { entity_value: f.entity_value.value.trim() };
      if (f.type.value) body.type = f.type.value;
      show($("verdict"), el("p", { text: "Screening…" }));
      api("POST", "/v1/screen", body).then(function (v) { show($("verdict"), verdictView(v)); loadHistory(); loadUsage(); }).catch(fail($("verdict")));
    });
    $("history-form").addEventListener("submit", function (ev) { ev.preventDefault(); loadHistory(); });
    $("key-form").addEventListener("submit", function (ev) {
      ev.preventDefault();
      api("POST", "/v1/keys", { name: ev.target.name.value.trim() }).then(function (k) {
        $("new-key").setAttribute("data-key-id", k.id);
        show($("new-key"), el("div", { role: "status" }, [el("p", { text: "Your new key (shown only now; copy it):" }), el("p", { class: "secret", "data-testid": "new-key", text: k.key })]));
        ev.target.reset(); loadKeys();
      }).catch(fail($("new-key")));
    });
    $("key-list").addEventListener("click", function (ev) {
      var id = ev.target.getAttribute && ev.target.getAttribute("data-revoke");
      if (!id) return;
      api("DELETE", "/v1/keys/" + encodeURIComponent(id)).then(function () {
        // A revoked key's secret is of no use: the "shown only now" box goes.
        if ($("new-key").getAttribute("data-key-id") === id) { $("new-key").removeAttribute("data-key-id"); $("new-key").replaceChildren(); }
        return loadKeys();
      }).catch(fail($("new-key")));
    });
    document.addEventListener("click", function (ev) {
      var a = ev.target.getAttribute && ev.target.getAttribute("data-action");
      if (a === "show-secret") api("GET", "/v1/webhook-secret").then(function (r) { show($("webhook-secret"), el("p", { class: "secret", "data-testid": "webhook-secret", text: r.secret })); }).catch(fail($("webhook-secret")));
      if (a === "rotate-secret") api("POST", "/v1/webhook-secret/rotate", {}).then(function (r) { show($("webhook-secret"), el("p", { class: "secret", "data-testid": "webhook-secret", text: r.secret })); }).catch(fail($("webhook-secret")));
      if (a === "checkout" || a === "portal") {
        ev.target.disabled = true;
        var call = a === "checkout" ? api("POST", "/v1/billing/checkout", { plan: ev.target.getAttribute("data-plan") }) : api("POST", "/v1/billing/portal", {});
        call.then(function (r) { window.location.assign(r.url); }).catch(function (e) { ev.target.disabled = false; fail($("billing-result"))(e); });
      }
      if (a === "resend") api("POST", "/auth/verify/resend").then(function () { ev.target.textContent = "Sent"; }).catch(function () {});
    });
    $("delete-form").addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (ev.target.confirm.value.trim().toLowerCase() !== "delete my account") return show($("delete-result"), el("p", { class: "error", role: "alert", text: "Type the words exactly to confirm." }));
      if (ev.target.getAttribute("data-available") !== "yes") return show($("delete-result"), el("p", { role: "status", text: "Account deletion is not available on this server yet; write to the operator." }));
      api("POST", "/v1/account/deletion", { confirm: true }).then(function () { window.location.assign("/"); }).catch(fail($("delete-result")));
    });
    loadHistory(); loadKeys(); loadUsage();
  });
})();
`;
