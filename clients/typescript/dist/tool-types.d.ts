/**
 * TypeScript types for a deployment's tools, written from its `/openapi.json`: each tool's input
 * (the request body's schema) and outputs (the `outputs` member of its answer), converted from
 * JSON Schema 2020-12. The result is a module exporting `interface Tools`, for
 * `createToolrunClient<Tools>(...)`; `toolrun-types` (types-cli.ts) writes it.
 */
/**
 * The TypeScript type of a JSON Schema. `resolve` follows a `$ref` into the document; a reference
 * it cannot follow, or one back into a schema being converted (a recursive schema), is `unknown`.
 */
export declare function schemaType(schema: unknown, resolve?: (ref: string) => unknown, indent?: string, seen?: ReadonlySet<unknown>): string;
/**
 * The module for a deployment's document: `export interface Tools` with each tool's slug and its
 * `input` and `outputs` types. `source` says where the document came from, in the header.
 */
export declare function toolTypesModule(document: unknown, source: string): string;
