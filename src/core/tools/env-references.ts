/**
 * `${NAME}` in the configuration file's secrets and HTTP tools' header values: the environment
 * variable NAME, so the file itself holds no secret. Only `${` starts a reference; any other `$`
 * is literal. Problems name the variable, never a value.
 */

type Env = Readonly<Record<string, string | undefined>>;

const REFERENCE = /\$\{([^}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The variables `text` refers to, or a problem when a reference is not `${NAME}`. */
export function envReferences(text: string): { readonly names: string[]; readonly problem?: string } {
  const names: string[] = [];
  for (const match of text.matchAll(REFERENCE)) {
    const name = match[1] ?? "";
    if (!NAME.test(name))
      return {
        names,
        problem: `\${${name}} is not a variable reference (write \${NAME}, NAME letters, digits and _)`,
      };
    names.push(name);
  }
  const unclosed = text.replace(REFERENCE, "").includes("${");
  // biome-ignore lint/suspicious/noTemplateCurlyInString: quotes the reference syntax to the operator
  return unclosed ? { names, problem: "has a ${ without its closing }" } : { names };
}

/**
 * `text` with each `${NAME}` replaced by its value, or the problem: a bad reference, or the names
 * of the variables that are not set.
 */
export function expandEnvReferences(
  text: string,
  env: Env,
): { readonly value: string } | { readonly problem: string } {
  const { names, problem } = envReferences(text);
  if (problem !== undefined) return { problem };
  const missing = names.filter((name) => env[name] === undefined);
  if (missing.length > 0) {
    const list = [...new Set(missing)].join(", ");
    return {
      problem: `needs the environment variable${missing.length > 1 ? "s" : ""} ${list}, which ${missing.length > 1 ? "are" : "is"} not set`,
    };
  }
  return { value: text.replace(REFERENCE, (_, name: string) => env[name] ?? "") };
}

/**
 * A tool's secrets (`tools.<slug>.secrets` in the configuration file) with their references
 * expanded; each problem starts with `where` and the secret's name.
 */
export function resolveSecrets(
  secrets: unknown,
  env: Env,
  where: string,
): { readonly secrets: Readonly<Record<string, string>>; readonly problems: string[] } {
  const resolved: Record<string, string> = {};
  const problems: string[] = [];
  if (typeof secrets !== "object" || secrets === null || Array.isArray(secrets)) {
    return { secrets: resolved, problems: [`${where} must be an object of strings`] };
  }
  for (const [name, raw] of Object.entries(secrets)) {
    if (typeof raw !== "string") {
      problems.push(`${where}.${name} must be a string`);
      continue;
    }
    const expanded = expandEnvReferences(raw, env);
    if ("problem" in expanded) problems.push(`${where}.${name} ${expanded.problem}`);
    else Object.defineProperty(resolved, name, { value: expanded.value, enumerable: true });
  }
  return { secrets: Object.freeze(resolved), problems };
}
