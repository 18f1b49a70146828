// @ts-check
/**
 * A tool's page: the form (rendered by the server from the input schema) becomes the JSON body of
 * `POST /v1/tool/{slug}`, the same charged call a program makes; the answer is shown as results or
 * as a problem with each field's message beside its field. A tool that runs as a job (always, or
 * when `Run as a job` is ticked) is followed until it ends (jobs.js), its result shown the same
 * way. A unit that follows a choice (metric or imperial) changes with it.
 */
import { callApi, hideProblem, showProblem } from "./api.js";
import { byId, h, table } from "./dom.js";
import { followJob, hideJob } from "./jobs.js";
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
    // A text box keeps line breaks as LF; a request put in whole (a captured delivery, in
    // `data-exact`) goes with its own bytes while it is unedited, so its signature still checks.
    const exact = control.dataset.exact;
    const value =
      exact !== undefined && control.value === exact.replace(/\r\n?/g, "\n") ? exact : control.value;
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

/**
 * The write-only fields of the form (the inspector's signing secret) and the shell variable each
 * is read from in the call as curl.
 * @param {HTMLFormElement} form
 * @returns {{ name: string, env: string }[]}
 */
function secretsOf(form) {
  return controlsOf(form).flatMap((control) =>
    control.dataset.env ? [{ name: control.name, env: control.dataset.env }] : [],
  );
}

/**
 * The exact call as curl, with the key left in `$TOOLRUN_KEY`. A write-only field given in the
 * form is read from its shell variable (`$WEBHOOK_SECRET`) and put in the body by jq, which
 * escapes it as JSON, so no secret is ever part of the command.
 * @param {string} slug
 * @param {Record<string, unknown>} body
 * @param {readonly { name: string, env: string }[]} secrets
 * @param {boolean} [asJob] asks for a job (`Prefer: respond-async`)
 */
export function curlOf(slug, body, secrets, asJob = false) {
  const given = secrets.filter((secret) => secret.name in body);
  const post = [
    `curl -sS -X POST ${shellQuote(`${location.origin}/v1/tool/${slug}`)} \\`,
    `  -H "Authorization: Bearer $TOOLRUN_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    ...(asJob ? [`  -H 'Prefer: respond-async' \\`] : []),
  ];
  if (given.length === 0) return [...post, `  --data-raw ${shellQuote(JSON.stringify(body))}`].join("\n");
  const rest = Object.fromEntries(
    Object.entries(body).filter(([name]) => !given.some((g) => g.name === name)),
  );
  const variable = (/** @type {string} */ name, /** @type {number} */ i) =>
    /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `value${i}`;
  const args = given.map((g, i) => `--arg ${variable(g.name, i)} "$${g.env}"`).join(" ");
  const filter = given.map((g, i) => `.${JSON.stringify(g.name)} = $${variable(g.name, i)}`).join(" | ");
  return [
    `printf '%s' ${shellQuote(JSON.stringify(rest))} |`,
    `  jq -c ${args} ${shellQuote(filter)} |`,
    ...post,
    "  --data-binary @-",
  ].join("\n");
}

/** What to set before running the call as curl. @param {Record<string, unknown>} body @param {readonly { name: string, env: string }[]} secrets */
function curlNote(body, secrets) {
  const given = secrets.filter((secret) => secret.name in body).map((secret) => secret.env);
  if (given.length === 0) return "Set TOOLRUN_KEY to your key before running it.";
  return `Set TOOLRUN_KEY to your key and ${given.join(", ")} to the value you gave in the form before running it; jq puts ${given.length === 1 ? "it" : "them"} in the body, so no secret is part of the command.`;
}

/**
 * Each unit beside a box that follows a choice field (`units`) shows the unit for the choice made.
 * @param {HTMLFormElement} form
 */
function showUnits(form) {
  for (const unit of form.querySelectorAll("[data-unit-field]")) {
    if (!(unit instanceof HTMLElement)) continue;
    const choice = form.elements.namedItem(unit.dataset.unitField ?? "");
    if (!(choice instanceof HTMLSelectElement)) continue;
    const units = /** @type {Record<string, string>} */ (JSON.parse(unit.dataset.units ?? "{}"));
    const shown = units[choice.value];
    if (shown !== undefined) unit.textContent = shown;
  }
}

/**
 * The inputs of a run as a person reads them (label, value and unit), for the calculation sheet.
 * @param {HTMLFormElement} form
 * @param {Record<string, unknown>} body
 */
function inputsTable(form, body) {
  const rows = controlsOf(form)
    .filter((control) => control.name in body)
    .map((control) => {
      const label = form.querySelector(`label[for="${control.id}"]`)?.textContent ?? control.name;
      const unit = document.getElementById(`unit-${control.name}`)?.textContent ?? "";
      // A choice as the form words it ("At rest (K0)"), never the value sent ("atrest").
      const value = control.dataset.env
        ? "given (not shown)"
        : control instanceof HTMLSelectElement
          ? (control.selectedOptions[0]?.textContent ?? String(body[control.name]))
          : String(body[control.name]);
      if (!unit || control.dataset.env) return [label, value];
      return [label, unit === "°" ? `${value}°` : `${value} ${unit}`];
    });
  const wrap = table("Inputs", ["Field", "Value"], rows);
  wrap.classList.add("inputs-used", "print-only");
  return wrap;
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
  showUnits(form);
}

export function setupToolPage() {
  const slug = document.body.dataset.slug ?? "";
  const form = byId("tool-form", HTMLFormElement);
  const status = byId("run-status", HTMLElement);
  const problemBox = byId("problem", HTMLElement);
  const curlSection = byId("curl", HTMLElement);
  const curlText = byId("curl-text", HTMLElement);
  const curlHelp = byId("curl-note", HTMLElement);
  const results = byId("results", HTMLElement);
  const resultsBody = byId("results-body", HTMLElement);
  const placeholder = byId("results-placeholder", HTMLElement);
  const sheetMeta = byId("sheet-meta", HTMLElement);
  const runButton = byId("run", HTMLButtonElement);
  // `optional`: the box says; `required`: always; `no`: never.
  const jobs = document.body.dataset.jobs ?? "no";
  const asJobBox = document.getElementById("run-as-job");
  const runsAsJob = () =>
    jobs === "required" || (jobs === "optional" && asJobBox instanceof HTMLInputElement && asJobBox.checked);
  let running = false;

  /** @param {Record<string, unknown>} body @param {boolean} [asJob] */
  function showCurl(body, asJob = runsAsJob()) {
    const secrets = secretsOf(form);
    curlText.textContent = curlOf(slug, body, secrets, asJob);
    curlHelp.textContent = curlNote(body, secrets);
    curlHelp.hidden = false;
    curlSection.hidden = false;
    return curlText.textContent;
  }

  form.addEventListener("change", () => showUnits(form));
  // A reset puts the choices back after its event: read them once it is done.
  form.addEventListener("reset", () => setTimeout(() => showUnits(form)));
  showUnits(form);

  for (const button of form.querySelectorAll("button.example")) {
    if (!(button instanceof HTMLButtonElement)) continue;
    button.addEventListener("click", () => fillExample(form, JSON.parse(button.dataset.example ?? "{}")));
  }

  byId("copy-curl", HTMLButtonElement).addEventListener("click", async () => {
    const body = bodyOf(form);
    const command = showCurl(body);
    try {
      await navigator.clipboard.writeText(command);
      status.textContent = `Copied the curl command. ${curlNote(body, secretsOf(form))}`;
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
    const body = bodyOf(form);
    const asJob = runsAsJob();
    running = true;
    // One call at a time: a second click while one runs (or while its job runs) would be a second
    // charged call. A disabled button loses the focus; a keyboard user gets it back where they left it.
    const hadFocus = document.activeElement === runButton;
    runButton.disabled = true;
    form.setAttribute("aria-busy", "true");
    status.textContent = asJob ? "Starting the job…" : "Running…";
    hideJob();
    const outcome = await callApi(
      "POST",
      `/v1/tool/${slug}`,
      key,
      JSON.stringify(body),
      asJob ? { prefer: "respond-async" } : {},
    );
    placeholder.hidden = true;
    showCurl(body, asJob);
    if (outcome.ok && outcome.status === 202) {
      results.hidden = true;
      const announce = (/** @type {string} */ text) => {
        status.textContent = text;
      };
      const ended = await followJob(outcome.data, outcome.retryAfter, key, announce);
      // The job's Cancel button, hidden now, may have had the focus.
      done(true);
      if (ended.status === "canceled") status.textContent = "The job was canceled: nothing was charged.";
      else if (ended.status === "succeeded") showResult(ended.result, body);
      else showFailure(ended.problem);
      return;
    }
    done(hadFocus);
    if (outcome.ok) showResult(outcome.data, body);
    else showFailure(outcome.problem);
  });

  /** Run is back, with the focus on it when it had it (or the job's Cancel button had it). @param {boolean} refocus */
  function done(refocus) {
    running = false;
    runButton.disabled = false;
    form.removeAttribute("aria-busy");
    if (refocus && (document.activeElement === document.body || document.activeElement === null))
      runButton.focus();
  }

  /** The 200 envelope: credits, the sheet's line and the results. @param {Record<string, unknown>} data @param {Record<string, unknown>} body */
  function showResult(data, body) {
    const remaining =
      data.credits_remaining === null || data.credits_remaining === undefined
        ? "no monthly limit"
        : `${data.credits_remaining} remaining this period`;
    status.textContent = `Done: ${data.credits_used} credits used, ${remaining}.`;
    sheetMeta.replaceChildren(
      `Version ${document.body.dataset.version ?? ""} · run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC · request `,
      h("code", {}, String(data.request_id ?? "")),
    );
    renderOutputs(resultsBody, /** @type {Record<string, unknown>} */ (data.outputs), [
      inputsTable(form, body),
    ]);
    results.hidden = false;
  }

  /** A problem, each field's message beside its field. @param {import("./api.js").Problem} problem */
  function showFailure(problem) {
    status.textContent = "";
    results.hidden = true;
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
  }
}
