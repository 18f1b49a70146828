// @ts-check
/**
 * A tool's page: the form (rendered by the server from the input schema) becomes the JSON body of
 * `POST /v1/tool/{slug}`, the same charged call a program makes; the answer is shown as results or
 * as a problem with each field's message beside its field.
 */
import { callApi, hideProblem, showProblem } from "./api.js";
import { byId } from "./dom.js";
import { currentKey } from "./key.js";
import { renderOutputs } from "./results.js";

/** @typedef {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} Control */

/** @param {HTMLFormElement} form @returns {Control[]} */
function controlsOf(form) {
  return [...form.querySelectorAll("[data-kind]")].filter(
    /** @returns {el is Control} */
    (el) =>
      el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement,
  );
}

/**
 * The request body the form holds. Empty fields are left out; a number box whose text is not a
 * number sends the text, so the service names the field.
 * @param {HTMLFormElement} form
 * @returns {Record<string, unknown>}
 */
export function bodyOf(form) {
  /** @type {Record<string, unknown>} */
  const body = {};
  for (const control of controlsOf(form)) {
    const kind = control.dataset.kind;
    if (kind === "boolean" && control instanceof HTMLInputElement) {
      body[control.name] = control.checked;
      continue;
    }
    const value = control.value;
    // An empty box is a field not given: the service then says "is required" where it is.
    if (value === "") continue;
    if (kind === "number" || kind === "integer") {
      const number = Number(value);
      body[control.name] = Number.isFinite(number) ? number : value;
    } else {
      body[control.name] = value;
    }
  }
  return body;
}

/** @param {string} text */
function shellQuote(text) {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The exact call as curl, with the key left in `$TOOLRUN_KEY`. @param {string} slug @param {string} json */
export function curlOf(slug, json) {
  return [
    `curl -sS -X POST ${shellQuote(`${location.origin}/v1/tool/${slug}`)} \\`,
    `  -H "Authorization: Bearer $TOOLRUN_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  --data-raw ${shellQuote(json)}`,
  ].join("\n");
}

/** @param {HTMLFormElement} form */
function clearFieldErrors(form) {
  for (const control of controlsOf(form)) {
    control.removeAttribute("aria-invalid");
    const slot = document.getElementById(`error-${control.name}`);
    if (slot) {
      slot.hidden = true;
      slot.textContent = "";
    }
  }
}

/** @param {HTMLFormElement} form @param {Record<string, unknown>} example */
function fillExample(form, example) {
  form.reset();
  for (const control of controlsOf(form)) {
    if (!(control.name in example)) continue;
    const value = example[control.name];
    if (control instanceof HTMLInputElement && control.type === "checkbox") control.checked = value === true;
    else control.value = String(value);
  }
}

export function setupToolPage() {
  const slug = document.body.dataset.slug ?? "";
  const form = byId("tool-form", HTMLFormElement);
  const status = byId("run-status", HTMLElement);
  const problemBox = byId("problem", HTMLElement);
  const curlSection = byId("curl", HTMLElement);
  const curlText = byId("curl-text", HTMLElement);
  const results = byId("results", HTMLElement);
  const resultsBody = byId("results-body", HTMLElement);
  let running = false;

  /** @param {string} json */
  function showCurl(json) {
    curlText.textContent = curlOf(slug, json);
    curlSection.hidden = false;
  }

  for (const button of form.querySelectorAll("button.example")) {
    if (!(button instanceof HTMLButtonElement)) continue;
    button.addEventListener("click", () => fillExample(form, JSON.parse(button.dataset.example ?? "{}")));
  }

  byId("copy-curl", HTMLButtonElement).addEventListener("click", async () => {
    const command = curlOf(slug, JSON.stringify(bodyOf(form)));
    curlText.textContent = command;
    curlSection.hidden = false;
    try {
      await navigator.clipboard.writeText(command);
      status.textContent = "Copied the curl command. Set TOOLRUN_KEY to your key before running it.";
    } catch {
      status.textContent = "The browser did not allow copying; the command is shown below to select.";
    }
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (running) return;
    clearFieldErrors(form);
    hideProblem(problemBox);
    const key = currentKey();
    if (key === null) {
      status.textContent = "";
      showProblem(problemBox, {
        code: "invalid_api_key",
        title: "Paste your API key first",
        detail:
          "Running a tool is a charged call made with your key. Paste it in the API key box at the top.",
      });
      return;
    }
    const json = JSON.stringify(bodyOf(form));
    running = true;
    form.setAttribute("aria-busy", "true");
    status.textContent = "Running…";
    const outcome = await callApi("POST", `/v1/tool/${slug}`, key, json);
    running = false;
    form.removeAttribute("aria-busy");
    showCurl(json);
    if (outcome.ok) {
      const { data } = outcome;
      const remaining =
        data.credits_remaining === null
          ? "no monthly limit"
          : `${data.credits_remaining} remaining this period`;
      status.textContent = `Done: ${data.credits_used} credits used, ${remaining}.`;
      renderOutputs(resultsBody, /** @type {Record<string, unknown>} */ (data.outputs));
      results.hidden = false;
      return;
    }
    status.textContent = "";
    results.hidden = true;
    const { problem } = outcome;
    /** @type {Record<string, string>} */
    const unplaced = {};
    /** @type {{ name: string, label: string, message: string }[]} */
    const placed = [];
    if (problem.fields && typeof problem.fields === "object") {
      for (const [name, message] of Object.entries(problem.fields)) {
        const slot = document.getElementById(`error-${name}`);
        const control = form.elements.namedItem(name);
        if (slot && control instanceof HTMLElement) {
          slot.textContent = message;
          slot.hidden = false;
          control.setAttribute("aria-invalid", "true");
          const label = form.querySelector(`label[for="field-${name}"]`);
          placed.push({ name, label: label?.textContent ?? name, message });
        } else {
          unplaced[name] = message;
        }
      }
    }
    showProblem(problemBox, problem, unplaced, placed);
  });
}
