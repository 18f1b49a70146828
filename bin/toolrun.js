#!/usr/bin/env node
// Runs the TypeScript CLI on the Node 24 that `npm ci` installs (type stripping, no build step).
import { main } from "../src/cli/main.ts";

const code = await main(process.argv.slice(2), process.env);
if (code !== 0) process.exitCode = code;
