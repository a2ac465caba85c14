const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] as string);

/**
 * A dependency-free API reference page: renders the OpenAPI document in the browser. `origin` is
 * where the reader reached the service (see public-origin.ts), so the example works as shown.
 */
export const docsPage = (specUrl: string, origin: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>svc API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#222}
code,pre{background:#f4f4f4;padding:.1rem .3rem;border-radius:4px}pre{padding:.8rem;overflow:auto}
h2{border-bottom:1px solid #ddd;padding-bottom:.3rem}.m{font-weight:700;text-transform:uppercase;margin-right:.5rem}</style></head>
<body><h1>svc API v1</h1><p>Send your key in <code>X-API-Key</code> or as <code>Authorization: Bearer</code>. Machine-readable: <a href="${escapeHtml(specUrl)}">${escapeHtml(origin + specUrl)}</a>.</p>
<p>Example: <code>curl -H "X-API-Key: $KEY" -H "content-type: application/json" -d '{"entity_value":"paypa1.com"}' ${escapeHtml(origin)}/v1/screen</code></p>
<div id="ops">Loading…</div>
<script>
fetch(${JSON.stringify(specUrl).replace(/</g, "\\u003c")}).then(r => r.json()).then(spec => {
  const esc = s => String(s).replace(/[&<>"]/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;","\\"":"&quot;"}[c]));
  const out = [];
  for (const [path, ops] of Object.entries(spec.paths)) for (const [m, op] of Object.entries(ops)) {
    out.push('<h2><span class="m">' + esc(m) + '</span><code>' + esc(path) + '</code></h2><p>' + esc(op.summary || "") + '</p>');
    out.push('<p>Responses: ' + Object.keys(op.responses).map(esc).join(", ") + '</p>');
  }
  document.getElementById("ops").innerHTML = out.join("");
});
</script></body></html>`;

/** The short page `GET /` shows a browser: what the service is, and where to read more. */
export const homePage = (origin: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>svc</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:720px;margin:2rem auto;padding:0 1rem;color:#222}code{background:#f4f4f4;padding:.1rem .3rem;border-radius:4px}</style></head>
<body><h1>svc — entity risk screening</h1>
<p>How risky is a domain, URL, wallet address, e-mail address, IPv4 address, phone number or social account: a 0–100 risk score, a risk level, a confidence, and the signals that explain it. Automated risk indicators for information only.</p>
<ul><li><a href="/docs">API reference</a> (${escapeHtml(origin)}/docs)</li>
<li><a href="/v1/openapi.json">OpenAPI 3.1 document</a> (${escapeHtml(origin)}/v1/openapi.json)</li></ul>
</body></html>`;
