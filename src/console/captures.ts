/**
 * The inspector page's "Catch a real delivery": a capture's address to paste into the provider's
 * dashboard, the requests it catches listed as they arrive, and one click to inspect one (an
 * ordinary, charged inspector run of the form). The page's script (assets/captures.js) does the
 * calls with the user's key; this is the markup it fills.
 */
import { html, type Markup } from "./html.ts";

/** The tools whose page offers a capture: those that take a raw HTTP request. */
export function catchDelivery(): Markup {
  return html`<section id="catch" class="catch card" aria-labelledby="catch-title">
<h2 id="catch-title">Catch a real delivery</h2>
<p>Get an address to paste into the provider's webhook settings; the requests it sends appear here as they arrive, and <strong>Inspect</strong> runs the inspector on one, exactly as it was received. Creating the address is free; each inspection is a run.</p>
<div id="catch-problem" class="problem" tabindex="-1" hidden></div>
<button type="button" id="catch-start">Create a capture address</button>
<div id="catch-live" hidden>
<div class="field">
  <div class="label-row"><label for="catch-url">Capture address</label></div>
  <div class="catch-url-row">
    <input id="catch-url" type="text" readonly spellcheck="false" aria-describedby="catch-url-help">
    <button type="button" id="catch-copy" class="secondary">Copy address</button>
  </div>
  <p class="help" id="catch-url-help">Paste it as the webhook endpoint in the provider's dashboard. Anyone with it can send to it; it is shown only in this tab. <span id="catch-expiry"></span></p>
</div>
<div id="catch-status" class="run-status" role="status" aria-live="polite"></div>
<section aria-labelledby="catch-requests-title">
<h3 id="catch-requests-title">Requests received</h3>
<p id="catch-empty" class="placeholder">Nothing yet. Send a test webhook from the provider's dashboard; it shows here within seconds.</p>
<div id="catch-requests"></div>
</section>
<button type="button" id="catch-stop" class="secondary">Delete the capture</button>
</div>
</section>`;
}
