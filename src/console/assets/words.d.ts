// The types of words.js for the server's TypeScript, which does not read JavaScript.
/** "timestampsFound", "raw-value" and "utc" as "Timestamps found", "Raw value" and "UTC". */
export function humanize(name: string): string;
