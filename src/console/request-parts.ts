/**
 * The inspector's other way of pasting a request: the body and the headers in two boxes, as the
 * Stripe dashboard and CLI show them, instead of one raw request. The page's script joins them into
 * the raw request the tool takes (its `payload` box), so the run, the call as curl and the answer
 * are the same as for the raw request pasted whole.
 */
import { html, type Markup } from "./html.ts";

/** The tools whose form takes a raw HTTP request, and the field that holds it. */
const RAW_REQUEST_FIELDS: Readonly<Record<string, string>> = {
  "webhook-payload-inspector": "payload",
};

export function rawRequestFieldOf(slug: string): string | null {
  return RAW_REQUEST_FIELDS[slug] ?? null;
}

/** The choice of how to paste, and the two boxes (not part of the request body: no `name` sent). */
export function requestParts(field: string): Markup {
  return html`<fieldset id="request-parts" class="request-parts group" data-field="${field}">
<legend>Paste the request as</legend>
<div class="modes">
<label><input type="radio" name="request-mode" value="raw" checked> Raw request</label>
<label><input type="radio" name="request-mode" value="parts"> Body and headers</label>
</div>
<div id="request-parts-boxes" hidden>
<div class="field field-multiline">
  <div class="label-row"><label for="request-headers">Headers</label></div>
  <textarea id="request-headers" rows="5" spellcheck="false" aria-describedby="request-headers-help"></textarea>
  <p class="help" id="request-headers-help">One <code>Name: value</code> per line, or a JSON object of them (<code>{"Stripe-Signature": "t=…,v1=…"}</code>).</p>
</div>
<div class="field field-multiline">
  <div class="label-row"><label for="request-body">Body</label></div>
  <textarea id="request-body" rows="12" spellcheck="false" aria-describedby="request-body-help"></textarea>
  <p class="help" id="request-body-help">Exactly as sent: a signature covers every byte, its spacing and key order included.</p>
</div>
</div>
</fieldset>`;
}
